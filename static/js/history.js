// Hand history: "Show previous hand" opens the most recent hand's details in place.
const button = document.getElementById("show-previous");
if (button) {
  button.addEventListener("click", (event) => {
    const row = document.getElementById(button.dataset.open);
    if (!row) return;
    event.preventDefault();
    const details = row.querySelector("details");
    details.open = true;
    row.scrollIntoView({ block: "start", behavior: "smooth" });
    details.querySelector("summary").focus();
  });
}
