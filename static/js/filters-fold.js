// The lobby's "Filters" button: on a phone the filters are folded away (site.css) so the first
// screen shows rooms; the button opens and closes them. Wider screens never show the button.

const toggle = document.getElementById("filters-toggle");
const filters = document.getElementById("lobby-filters");
if (toggle && filters) {
  toggle.addEventListener("click", () => {
    const open = !filters.classList.contains("open");
    filters.classList.toggle("open", open);
    toggle.setAttribute("aria-expanded", String(open));
  });
}
