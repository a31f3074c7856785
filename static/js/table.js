// The table page's entry module: starts the table client on #table-app. `app` is exported for
// the browser tests (tests/e2e read the client's own view of the table through it).

import { TableApp } from "./table-app.js";

const root = document.getElementById("table-app");
const client = JSON.parse(document.getElementById("table-client").textContent);
export const app = new TableApp(root, client);
