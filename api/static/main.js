// The page's entry: the one script index.html loads (type="module").  Each part of the page is a
// module that wires its own controls when imported; nothing is put on `window`.
import "./page.js";
import "./share.js";
import "./builder.js";
import "./rulings.js";
import "./explore.js";
import "./samples.js";
import "./sheet.js";
