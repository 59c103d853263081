// Page weight (issue 4): bytes on the wire for a first load of each URL in a fresh
// Chromium context (empty cache), counted per response as encoded body + headers
// (playwright-core's request.sizes()), grouped by resource type. Chromium sends its own
// Accept-Encoding (gzip, deflate, br, zstd), so responses come compressed as a browser gets them.
//
//   node bench/page_weight.mjs OUT.json URL...        (run from the repo root)
import { createRequire } from "node:module";
import { writeFileSync } from "node:fs";
const require = createRequire(new URL("../web/package.json", import.meta.url));
const { chromium } = require("playwright-core");

const [out, ...urls] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking"],
});
const results = [];
for (const url of urls) {
  for (const [label, viewport] of [["mobile", { width: 390, height: 844 }], ["desktop", { width: 1280, height: 900 }]]) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const requests = [];
    page.on("requestfinished", async (req) => requests.push(req));
    const response = await page.goto(url, { waitUntil: "networkidle" });
    await page.waitForTimeout(500);
    const rows = [];
    for (const req of requests) {
      const s = await req.sizes();
      const res = await req.response();
      rows.push({
        url: req.url(),
        type: req.resourceType(),
        encoding: (res && (await res.headerValue("content-encoding"))) || "",
        body: s.responseBodySize,
        headers: s.responseHeadersSize,
      });
    }
    const sum = (f) => rows.filter(f).reduce((a, r) => a + r.body + r.headers, 0);
    results.push({
      url,
      viewport: label,
      status: response.status(),
      requests: rows.length,
      total_bytes: sum(() => true),
      images_bytes: sum((r) => r.type === "image" || r.type === "media"),
      counted_bytes: sum((r) => r.type !== "image" && r.type !== "media"),
      rows,
    });
    await context.close();
  }
}
await browser.close();
writeFileSync(out, JSON.stringify(results, null, 1));
for (const r of results) {
  console.log(
    `${r.viewport.padEnd(7)} ${String(r.status)} ${(r.counted_bytes / 1024).toFixed(1).padStart(6)} KB without images` +
      ` (${r.requests} requests, images ${(r.images_bytes / 1024).toFixed(1)} KB)  ${r.url}`,
  );
  for (const x of r.rows) console.log(`    ${x.type.padEnd(10)} ${x.encoding.padEnd(5)} ${String(x.body + x.headers).padStart(7)}  ${x.url.slice(0, 100)}`);
}
