// The site's JSON endpoints from a page: a POST (or another method) with the page's CSRF token,
// the answer's body, and a refusal as an Error carrying the server's `code` (an Error without
// one: the server could not be reached).

function csrfToken() {
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

/** `fields` (a URLSearchParams or FormData, optional) go as the request's form fields. */
export async function callJson(url, method = "POST", fields = undefined) {
  const response = await fetch(url, {
    method,
    credentials: "same-origin",
    headers: { Accept: "application/json", "X-CSRFToken": csrfToken() },
    body: fields,
  });
  let body = {};
  try {
    body = await response.json();
  } catch {
    body = {};
  }
  if (!response.ok) {
    const error = body.error || { code: "unavailable", message: "the server could not answer; try again" };
    throw Object.assign(new Error(error.message), { code: error.code });
  }
  return body;
}
