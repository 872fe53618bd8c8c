// Generates the SVG illustration sources in scripts/content/svg/ for the sample blog posts.
// The SVGs are the kept, editable sources; render-images.mjs turns them into JPEGs.
//
// Run from the project root:   node scripts/content/make-svgs.mjs
// (No dependencies. Output is deterministic: every random choice comes from a seeded PRNG.)
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), "svg");
const W = 1200;
const H = 800;

// Shared, restrained palette so the set looks coherent.
const C = {
  paper: "#ede5d5",
  paperWarm: "#e6dbc4",
  paperDark: "#d3c6ab",
  stone: "#9a978f",
  stoneLight: "#c2bdb2",
  stoneDark: "#5f5d58",
  ink: "#1e1c1a",
  inkSoft: "#3a3733",
  moss: "#6b7553",
  mossDark: "#4b533a",
  ochre: "#b58a45",
  ochreSoft: "#cfae72",
  indigo: "#27304a",
  indigoDeep: "#181e30",
  indigoSoft: "#46506b",
};

function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const f = (n) => (Math.round(n * 10) / 10).toString();

// ---------- shared building blocks ----------

function baseDefs(seed) {
  return `
    <filter id="mottle" x="0" y="0" width="100%" height="100%" color-interpolation-filters="sRGB">
      <feTurbulence type="fractalNoise" baseFrequency="0.006 0.011" numOctaves="4" seed="${seed}"/>
      <feColorMatrix type="matrix" values="0 0 0 0 0.42  0 0 0 0 0.33  0 0 0 0 0.22  0.7 0 0 0 -0.25"/>
    </filter>
    <filter id="grain" x="0" y="0" width="100%" height="100%" color-interpolation-filters="sRGB">
      <feTurbulence type="fractalNoise" baseFrequency="0.55" numOctaves="2" seed="${seed + 7}"/>
      <feColorMatrix type="matrix" values="0 0 0 0 0.3  0 0 0 0 0.25  0 0 0 0 0.2  0.9 0 0 0 -0.38"/>
    </filter>
    <filter id="rough" x="-5%" y="-5%" width="110%" height="110%">
      <feTurbulence type="fractalNoise" baseFrequency="0.035" numOctaves="3" seed="${seed + 3}" result="n"/>
      <feDisplacementMap in="SourceGraphic" in2="n" scale="6" xChannelSelector="R" yChannelSelector="G"/>
    </filter>
    <filter id="bleed" x="-10%" y="-10%" width="120%" height="120%">
      <feTurbulence type="fractalNoise" baseFrequency="0.02" numOctaves="3" seed="${seed + 5}" result="n"/>
      <feDisplacementMap in="SourceGraphic" in2="n" scale="10" xChannelSelector="R" yChannelSelector="G" result="d"/>
      <feGaussianBlur in="d" stdDeviation="1.2"/>
    </filter>
    <filter id="wobble" x="-5%" y="-5%" width="110%" height="110%">
      <feTurbulence type="fractalNoise" baseFrequency="0.012" numOctaves="2" seed="${seed + 9}" result="n"/>
      <feDisplacementMap in="SourceGraphic" in2="n" scale="5" xChannelSelector="R" yChannelSelector="G"/>
    </filter>
    <filter id="soft" x="-30%" y="-30%" width="160%" height="160%"><feGaussianBlur stdDeviation="18"/></filter>
    <filter id="softer" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="40"/></filter>
    <radialGradient id="vignette" cx="50%" cy="48%" r="75%">
      <stop offset="0.55" stop-color="#3b2e20" stop-opacity="0"/>
      <stop offset="1" stop-color="#3b2e20" stop-opacity="0.22"/>
    </radialGradient>`;
}

function paperLayer(color = C.paper, mottle = 0.5, grain = 0.5) {
  return `
  <rect width="${W}" height="${H}" fill="${color}"/>
  <rect width="${W}" height="${H}" filter="url(#mottle)" opacity="${mottle}"/>
  <rect width="${W}" height="${H}" filter="url(#grain)" opacity="${grain}"/>`;
}

function finish(grain = 0.35) {
  return `
  <rect width="${W}" height="${H}" filter="url(#grain)" opacity="${grain}"/>
  <rect width="${W}" height="${H}" fill="url(#vignette)"/>`;
}

function svg(seed, defs, body) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
  <defs>${baseDefs(seed)}${defs}
  </defs>${body}
</svg>
`;
}

// Closed Catmull-Rom spline through points -> smooth SVG path.
function smoothClosed(pts) {
  const n = pts.length;
  let d = `M${f(pts[0][0])},${f(pts[0][1])}`;
  for (let i = 0; i < n; i++) {
    const p0 = pts[(i - 1 + n) % n],
      p1 = pts[i],
      p2 = pts[(i + 1) % n],
      p3 = pts[(i + 2) % n];
    const c1 = [p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6];
    const c2 = [p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6];
    d += ` C${f(c1[0])},${f(c1[1])} ${f(c2[0])},${f(c2[1])} ${f(p2[0])},${f(p2[1])}`;
  }
  return d + "Z";
}

// Irregular rounded blob around an ellipse. flat>0 squashes the lower half (a stone resting on the ground).
function blob(r, x, y, rx, ry, k = 10, jitter = 0.18, flat = 0) {
  const pts = [];
  const phase = r() * Math.PI * 2;
  for (let i = 0; i < k; i++) {
    const a = phase + (i / k) * Math.PI * 2;
    const rr = 1 + (r() - 0.5) * jitter;
    let yy = Math.sin(a) * ry * rr;
    if (yy > 0) yy *= 1 - flat;
    pts.push([x + Math.cos(a) * rx * rr, y + yy]);
  }
  return smoothClosed(pts);
}

// Ridge line by midpoint displacement.
function ridgePts(r, y0, y1, rough, steps = 7) {
  let pts = [
    [-80, y0],
    [W + 80, y1],
  ];
  let amp = rough;
  for (let s = 0; s < steps; s++) {
    const next = [pts[0]];
    for (let i = 1; i < pts.length; i++) {
      const [ax, ay] = pts[i - 1];
      const [bx, by] = pts[i];
      next.push([(ax + bx) / 2 + (r() - 0.5) * amp * 0.3, (ay + by) / 2 + (r() - 0.5) * amp]);
      next.push(pts[i]);
    }
    pts = next;
    amp *= 0.55;
  }
  return pts;
}
const ridgePath = (pts, bottom = H + 40) =>
  `M${pts.map(([x, y]) => `${f(x)},${f(y)}`).join(" L")} L${W + 80},${bottom} L-80,${bottom} Z`;
const ridge = (r, y0, y1, rough, steps = 7, bottom = H + 40) => ridgePath(ridgePts(r, y0, y1, rough, steps), bottom);
// Mirror a ridge about a horizontal water line (for reflections).
const mirrorPath = (pts, waterY) =>
  `M${pts.map(([x, y]) => `${f(x)},${f(2 * waterY - y)}`).join(" L")} L${W + 80},${waterY} L-80,${waterY} Z`;

// A dry-brush circle made of many bristle arcs (for the enso).
function ensoBristles(r, cx, cy, R, start, sweep, width) {
  let out = "";
  const n = 80;
  for (let i = 0; i < n; i++) {
    const u = i / (n - 1) - 0.5;
    const edge = Math.abs(u) * 2; // 0 centre .. 1 edge
    const a0 = start + r() * 0.05 + edge * edge * 0.07;
    const endFrac = 1 - Math.pow(edge, 1.5) * (0.12 + r() * 0.3) - r() * 0.04;
    const a1 = start + sweep * endFrac;
    const breakFrac = (edge > 0.6 ? 0.45 : 0.7) + r() * 0.25;
    const aB = Math.min(a1, start + sweep * breakFrac);
    const pt = (a) => {
      const t = (a - start) / sweep;
      const ws = 1.08 - 0.42 * t + 0.12 * Math.sin(Math.PI * t); // brush lifts towards the end
      const rr = R + u * width * ws + Math.sin(a * 2.3 + 1.7) * 5;
      return [cx + rr * Math.cos(a), cy + rr * Math.sin(a)];
    };
    const line = (from, to) => {
      const segs = Math.max(6, Math.round(((to - from) / sweep) * 120));
      let d = "";
      for (let k = 0; k <= segs; k++) {
        const [x, y] = pt(from + ((to - from) * k) / segs);
        d += (k ? "L" : "M") + f(x) + "," + f(y);
      }
      return d;
    };
    const sw = 2 + r() * 3.2;
    const op = edge > 0.85 ? 0.45 + r() * 0.3 : 0.8 + r() * 0.2;
    out += `<path d="${line(a0, aB)}" stroke-width="${f(sw)}" stroke-opacity="${op.toFixed(2)}"/>`;
    if (a1 > aB + 0.01) {
      const dash = `${f(30 + r() * 120)} ${f(4 + r() * 18)} ${f(10 + r() * 60)} ${f(6 + r() * 24)}`;
      out += `<path d="${line(aB, a1)}" stroke-width="${f(sw * 0.85)}" stroke-opacity="${(op * 0.8).toFixed(2)}" stroke-dasharray="${dash}"/>`;
    }
  }
  return out;
}

function leaf(x, y, len, wid, ang) {
  // tapered bamboo leaf pointing along ang (radians), base at x,y
  const ca = Math.cos(ang),
    sa = Math.sin(ang);
  const P = (u, v) => [x + u * ca - v * sa, y + u * sa + v * ca];
  const [tx, ty] = P(len, 0);
  const [c1x, c1y] = P(len * 0.35, wid);
  const [c2x, c2y] = P(len * 0.35, -wid * 0.8);
  return `M${f(x)},${f(y)} Q${f(c1x)},${f(c1y)} ${f(tx)},${f(ty)} Q${f(c2x)},${f(c2y)} ${f(x)},${f(y)} Z`;
}

function seal(x, y, w, h, marks) {
  return `<g transform="translate(${x} ${y})">
    <rect width="${w}" height="${h}" rx="3" fill="#a4623f" opacity="0.82" filter="url(#rough)"/>
    <path d="${marks}" stroke="${C.paper}" stroke-width="${f(w / 11)}" fill="none" opacity="0.85" stroke-linecap="round"/>
  </g>`;
}

// ---------- the eleven illustrations ----------

const art = {};

// 1. Enso on warm paper
art["how-to-start-zazen-at-home"] = () => {
  const r = rng(11);
  const cx = 575,
    cy = 400,
    R = 245,
    start = -2.1,
    width = 62;
  return svg(
    11,
    ``,
    `${paperLayer(C.paper, 0.35, 0.22)}
  <ellipse cx="${cx}" cy="${cy + 10}" rx="360" ry="330" fill="${C.paperDark}" opacity="0.28" filter="url(#softer)"/>
  <g fill="none" stroke="${C.ink}" stroke-linecap="round" filter="url(#rough)">
    ${ensoBristles(r, cx, cy, R, start, Math.PI * 1.84, width)}
  </g>
  ${seal(952, 592, 46, 62, "M12,15 h22 M23,15 v34 M12,31 h22 M12,49 h22")}
  ${finish(0.12)}`
  );
};

// 2. Zafu on zabuton, with a small bowl bell, in window light
art["zazen-posture-for-beginners"] = () => {
  const cx = 560;
  const topY = 448,
    botY = 548,
    rxT = 190,
    ryT = 48,
    rxB = 196,
    ryB = 50;
  let pleats = "";
  for (let i = 1; i < 18; i++) {
    const a = Math.PI - (i / 18) * Math.PI; // front half
    const xt = cx + Math.cos(a) * rxT,
      yt = topY + Math.sin(a) * ryT;
    const xb = cx + Math.cos(a) * rxB,
      yb = botY + Math.sin(a) * ryB;
    const bulge = Math.cos(a) * 12;
    pleats += `<path d="M${f(xt)},${f(yt)} Q${f((xt + xb) / 2 + bulge)},${f((yt + yb) / 2)} ${f(xb)},${f(yb)}" stroke="#0c101b" stroke-width="3" opacity="0.55"/>`;
    pleats += `<path d="M${f(xt + 6)},${f(yt + 2)} Q${f((xt + xb) / 2 + bulge + 6)},${f((yt + yb) / 2)} ${f(xb + 6)},${f(yb)}" stroke="#6d7899" stroke-width="2" opacity="0.25"/>`;
  }
  let gather = "";
  for (let i = 0; i < 14; i++) {
    const a = (i / 14) * Math.PI * 2;
    gather += `<path d="M${f(cx + Math.cos(a) * 14)},${f(topY + Math.sin(a) * 4)} L${f(cx + Math.cos(a) * 55)},${f(topY + Math.sin(a) * 14)}"/>`;
  }
  return svg(
    22,
    `
    <linearGradient id="wall" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#e5dcc9"/><stop offset="1" stop-color="#d5c9b0"/>
    </linearGradient>
    <linearGradient id="floor" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#a39b8b"/><stop offset="1" stop-color="#7f786b"/>
    </linearGradient>
    <linearGradient id="beam" x1="0" y1="0" x2="1" y2="0.3">
      <stop offset="0" stop-color="#fbf1d8" stop-opacity="0.8"/><stop offset="1" stop-color="#fbf1d8" stop-opacity="0"/>
    </linearGradient>
    <radialGradient id="zafuTop" cx="42%" cy="30%" r="75%">
      <stop offset="0" stop-color="#545f80"/><stop offset="0.6" stop-color="${C.indigo}"/><stop offset="1" stop-color="${C.indigoDeep}"/>
    </radialGradient>
    <linearGradient id="zafuSide" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="#2f3958"/><stop offset="0.35" stop-color="${C.indigo}"/><stop offset="1" stop-color="#0f131e"/>
    </linearGradient>
    <linearGradient id="mat" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#44423e"/><stop offset="1" stop-color="#2a2926"/>
    </linearGradient>
    <radialGradient id="bronze" cx="35%" cy="30%" r="80%">
      <stop offset="0" stop-color="#e0c489"/><stop offset="0.5" stop-color="${C.ochre}"/><stop offset="1" stop-color="#6e5026"/>
    </radialGradient>`,
    `
  <rect width="${W}" height="${H}" fill="url(#wall)"/>
  <rect width="${W}" height="${H}" filter="url(#mottle)" opacity="0.2"/>
  <rect y="500" width="${W}" height="300" fill="url(#floor)"/>
  <g stroke="#6f6a5f" stroke-width="2" opacity="0.35">
    <path d="M0,560 H1200 M0,640 H1200 M0,735 H1200"/>
  </g>
  <rect y="496" width="${W}" height="10" fill="#bfb49c"/>
  <!-- light from a window at the left -->
  <polygon points="-40,60 330,120 330,470 -40,470" fill="#f7ecd2" opacity="0.55" filter="url(#soft)"/>
  <path d="M145,90 V470 M-40,270 H330" stroke="#d8ccb0" stroke-width="14" opacity="0.6" filter="url(#soft)"/>
  <polygon points="-40,500 330,500 1000,800 -40,800" fill="url(#beam)" opacity="0.45" filter="url(#soft)"/>
  <!-- zabuton -->
  <ellipse cx="${cx}" cy="650" rx="420" ry="46" fill="#000" opacity="0.25" filter="url(#soft)"/>
  <path d="M260,578 Q262,566 276,566 L844,566 Q858,566 862,578 L940,640 Q946,654 930,654 L190,654 Q174,654 180,640 Z" fill="url(#mat)"/>
  <path d="M180,646 Q176,668 196,670 L924,670 Q946,668 940,646 L930,654 L190,654 Z" fill="#1c1b19"/>
  <path d="M276,568 L844,568" stroke="#6a665f" stroke-width="2" opacity="0.5"/>
  <!-- zafu -->
  <ellipse cx="${cx}" cy="${botY + 34}" rx="215" ry="30" fill="#000" opacity="0.45" filter="url(#soft)"/>
  <path d="M${cx - rxT},${topY} C${cx - rxT - 26},${topY + 40} ${cx - rxB - 22},${botY - 30} ${cx - rxB},${botY}
           A${rxB},${ryB} 0 0 0 ${cx + rxB},${botY}
           C${cx + rxB + 22},${botY - 30} ${cx + rxT + 26},${topY + 40} ${cx + rxT},${topY}
           A${rxT},${ryT} 0 0 1 ${cx - rxT},${topY} Z" fill="url(#zafuSide)"/>
  <g fill="none">${pleats}</g>
  <ellipse cx="${cx}" cy="${topY}" rx="${rxT}" ry="${ryT}" fill="url(#zafuTop)"/>
  <ellipse cx="${cx}" cy="${topY}" rx="${rxT}" ry="${ryT}" fill="none" stroke="#0c101b" stroke-width="3" opacity="0.5"/>
  <g stroke="#0c101b" stroke-width="2" opacity="0.35">${gather}</g>
  <ellipse cx="${cx}" cy="${topY}" rx="13" ry="4.5" fill="#0d111c"/>
  <ellipse cx="${cx - 60}" cy="${topY - 14}" rx="90" ry="14" fill="#a8b2cc" opacity="0.12" filter="url(#soft)"/>
  <!-- bowl bell (rin) on a small cushion -->
  <ellipse cx="1010" cy="628" rx="80" ry="14" fill="#000" opacity="0.3" filter="url(#soft)"/>
  <path d="M948,600 Q1010,585 1072,600 L1078,618 Q1010,634 942,618 Z" fill="#6e2f2a" opacity="0.8"/>
  <path d="M962,560 C962,606 1058,606 1058,560 Z" fill="url(#bronze)"/>
  <ellipse cx="1010" cy="560" rx="48" ry="10" fill="#4d3819"/>
  <ellipse cx="1010" cy="558" rx="48" ry="10" fill="none" stroke="#e8d09a" stroke-width="2" opacity="0.7"/>
  <path d="M1080,624 L1150,606" stroke="#3b2a1a" stroke-width="6" stroke-linecap="round"/>
  ${finish(0.3)}`
  );
};

// 3. Ripples around a stone on deep water
art["counting-the-breath"] = () => {
  let rings = "",
    shadows = "";
  for (let i = 1; i <= 10; i++) {
    const rx = 30 + i * 58,
      ry = rx * 0.27;
    const op = 0.6 * (1 - i / 12);
    rings += `<ellipse cx="600" cy="480" rx="${rx}" ry="${f(ry)}" stroke-width="${f(3.4 - i * 0.22)}" stroke-opacity="${op.toFixed(2)}"/>`;
    shadows += `<ellipse cx="600" cy="487" rx="${rx + 6}" ry="${f(ry + 3)}" stroke-width="${f(7 - i * 0.4)}" stroke-opacity="${(op * 0.6).toFixed(2)}"/>`;
  }
  return svg(
    33,
    `
    <linearGradient id="water" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#59617a"/><stop offset="0.4" stop-color="#343d57"/><stop offset="1" stop-color="${C.indigoDeep}"/>
    </linearGradient>
    <radialGradient id="glow" cx="50%" cy="55%" r="55%">
      <stop offset="0" stop-color="#d9c9a3" stop-opacity="0.28"/><stop offset="1" stop-color="#d9c9a3" stop-opacity="0"/>
    </radialGradient>
    <radialGradient id="pebble" cx="38%" cy="25%" r="80%">
      <stop offset="0" stop-color="#a9a498"/><stop offset="0.55" stop-color="#5e5b55"/><stop offset="1" stop-color="#2b2a28"/>
    </radialGradient>`,
    `
  <rect width="${W}" height="${H}" fill="url(#water)"/>
  <rect width="${W}" height="${H}" filter="url(#mottle)" opacity="0.25"/>
  <rect width="${W}" height="${H}" fill="url(#glow)"/>
  <g fill="none" filter="url(#wobble)">
    <g stroke="#0b0f1c">${shadows}</g>
    <g stroke="#eee5cf">${rings}</g>
  </g>
  <ellipse cx="600" cy="486" rx="70" ry="16" fill="#0a0d18" opacity="0.55" filter="url(#soft)"/>
  <path d="M548,482 C546,446 574,428 602,428 C632,428 656,448 652,482 C628,492 572,492 548,482 Z" fill="url(#pebble)"/>
  <path d="M550,480 C575,490 628,490 650,480" stroke="#eee5cf" stroke-width="2" fill="none" opacity="0.45"/>
  <ellipse cx="584" cy="444" rx="18" ry="7" fill="#fff" opacity="0.16" filter="url(#bleed)"/>
  ${finish(0.3)}`
  );
};

// 4. Stepping stones across moss into mist
art["kinhin-walking-meditation"] = () => {
  const r = rng(44);
  // far trees in the mist
  let trees = "";
  for (let layer = 0; layer < 2; layer++) {
    const col = layer ? "#8d9280" : "#b4b6a8";
    const base = layer ? 300 : 285;
    for (let i = 0; i < 16; i++) {
      const x = r() * W,
        h = 90 + r() * 130 - layer * 10;
      trees += `<path d="M${f(x)},${base} L${f(x)},${f(base - h)}" stroke="${col}" stroke-width="${f(3 + r() * 3)}" opacity="0.6"/>`;
      trees += `<ellipse cx="${f(x + (r() - 0.5) * 20)}" cy="${f(base - h * 0.75)}" rx="${f(28 + r() * 40)}" ry="${f(40 + r() * 35)}" fill="${col}" opacity="0.55"/>`;
    }
  }
  // a wind-shaped pine in ink wash: trunk plus layered foliage pads
  const pine = (x, base, h, col, op) => {
    let g = `<path d="M${x},${base} C${x + 6},${base - h * 0.4} ${x - 14},${base - h * 0.7} ${x + 8},${base - h}" stroke="${col}" stroke-width="${f(h / 28)}" fill="none"/>`;
    for (let i = 0; i < 5; i++) {
      const t = 0.35 + i * 0.15;
      const px = x + (i % 2 ? 1 : -1) * h * 0.12 * (1 - t) + (r() - 0.5) * 10;
      const py = base - h * t;
      const w = h * (0.42 - i * 0.06);
      g += `<path d="${blob(r, px + (i % 2 ? w * 0.3 : -w * 0.2), py, w, h * 0.075, 11, 0.4)}" fill="${col}"/>`;
    }
    return `<g opacity="${op}" filter="url(#bleed)">${g}</g>`;
  };
  const pts = [
    [640, 740, 150],
    [520, 630, 118],
    [610, 540, 92],
    [540, 468, 72],
    [598, 410, 56],
    [552, 366, 44],
    [586, 333, 34],
    [560, 308, 26],
  ];
  let stones = "";
  for (const [x, y, s] of pts) {
    const ry = s * 0.38;
    stones += `<ellipse cx="${x + 8}" cy="${f(y + ry * 0.5)}" rx="${f(s * 1.1)}" ry="${f(ry * 1.05)}" fill="#232a17" opacity="0.6" filter="url(#soft)"/>`;
    const rs = rng(Math.round(x * 7 + y));
    const rs2 = rng(Math.round(x * 7 + y));
    stones += `<path d="${blob(rs, x, y + ry * 0.22, s, ry * 0.92, 7, 0.3)}" fill="#5a574f"/>`;
    stones += `<path d="${blob(rs2, x, y, s * 0.98, ry * 0.88, 7, 0.3)}" fill="url(#stoneG)"/>`;
  }
  return svg(
    44,
    `
    <filter id="mossTex" x="0" y="0" width="100%" height="100%" color-interpolation-filters="sRGB">
      <feTurbulence type="fractalNoise" baseFrequency="0.02 0.06" numOctaves="2" seed="4"/>
      <feColorMatrix type="matrix" values="0 0 0 0 0.2  0 0 0 0 0.24  0 0 0 0 0.13  1.0 0 0 0 -0.42"/>
    </filter>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#e7e2d5"/><stop offset="1" stop-color="#d4d1c3"/>
    </linearGradient>
    <linearGradient id="moss" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#a5aa90"/><stop offset="0.3" stop-color="#7c8660"/><stop offset="1" stop-color="#465033"/>
    </linearGradient>
    <linearGradient id="stoneG" x1="0" y1="0" x2="0.3" y2="1">
      <stop offset="0" stop-color="#c9c5b9"/><stop offset="1" stop-color="#8a867c"/>
    </linearGradient>
    <linearGradient id="mistG" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#e4e0d2" stop-opacity="0"/><stop offset="0.45" stop-color="#e4e0d2" stop-opacity="0.95"/><stop offset="1" stop-color="#e4e0d2" stop-opacity="0"/>
    </linearGradient>`,
    `
  <rect width="${W}" height="${H}" fill="url(#sky)"/>
  <rect width="${W}" height="${H}" filter="url(#mottle)" opacity="0.25"/>
  <g filter="url(#softer)">${trees}</g>
  ${pine(170, 300, 250, "#7d8470", 0.55)}
  ${pine(1040, 298, 190, "#959a87", 0.42)}
  <path d="M-20,296 C300,290 900,286 1220,294 L1220,800 L-20,800 Z" fill="url(#moss)"/>
  <rect y="290" width="${W}" height="510" filter="url(#mossTex)" opacity="0.5"/>
  ${stones}
  <rect y="200" width="${W}" height="190" fill="url(#mistG)"/>
  ${finish(0.3)}`
  );
};

// 5. Moon over ink mountains, reflected in still water
art["the-koan-tradition"] = () => {
  const r = rng(55);
  const waterY = 520;
  const far = ridgePts(r, 330, 300, 260, 7);
  const mid = ridgePts(r, 430, 450, 200, 7);
  const near = ridgePts(r, 500, 488, 70, 6);
  let glints = "";
  for (let i = 0; i < 14; i++) {
    const y = waterY + 30 + i * 17;
    const w = 90 - i * 4 + (r() - 0.5) * 30;
    glints += `<path d="M${f(780 - w / 2 + (r() - 0.5) * 16)},${y} h${f(w)}" stroke-width="${f(4 - i * 0.2)}" opacity="${(0.5 - i * 0.03).toFixed(2)}"/>`;
  }
  return svg(
    55,
    `
    <linearGradient id="night" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${C.indigoDeep}"/><stop offset="0.75" stop-color="#414a64"/>
    </linearGradient>
    <linearGradient id="lake" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#353d56"/><stop offset="1" stop-color="#12162a"/>
    </linearGradient>
    <radialGradient id="moonG" cx="45%" cy="42%" r="60%">
      <stop offset="0" stop-color="#f6efdc"/><stop offset="1" stop-color="#ddcaa0"/>
    </radialGradient>
    <radialGradient id="halo" cx="50%" cy="50%" r="50%">
      <stop offset="0" stop-color="#e9dcb8" stop-opacity="0.4"/><stop offset="1" stop-color="#e9dcb8" stop-opacity="0"/>
    </radialGradient>
    <linearGradient id="farG" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#5a6381"/><stop offset="0.5" stop-color="#5a6381" stop-opacity="0.4"/>
    </linearGradient>`,
    `
  <rect width="${W}" height="${H}" fill="url(#night)"/>
  <rect width="${W}" height="${H}" filter="url(#mottle)" opacity="0.2"/>
  <circle cx="780" cy="190" r="250" fill="url(#halo)"/>
  <circle cx="780" cy="190" r="80" fill="url(#moonG)"/>
  <circle cx="756" cy="176" r="18" fill="#cdb98c" opacity="0.22" filter="url(#bleed)"/>
  <circle cx="806" cy="214" r="12" fill="#cdb98c" opacity="0.18" filter="url(#bleed)"/>
  <path d="${ridgePath(far, waterY)}" fill="url(#farG)" filter="url(#rough)"/>
  <ellipse cx="600" cy="440" rx="700" ry="40" fill="#8a90a6" opacity="0.25" filter="url(#softer)"/>
  <path d="${ridgePath(mid, waterY)}" fill="#2b3249" filter="url(#rough)"/>
  <path d="${ridgePath(near, waterY)}" fill="#171b2b"/>
  <rect y="${waterY}" width="${W}" height="${H - waterY}" fill="url(#lake)"/>
  <g filter="url(#wobble)" opacity="0.35">
    <path d="${mirrorPath(mid, waterY)}" fill="#222839"/>
    <path d="${mirrorPath(near, waterY)}" fill="#111423"/>
  </g>
  <g stroke="#eadfbf" stroke-linecap="round" filter="url(#wobble)">${glints}</g>
  <rect y="${waterY}" width="${W}" height="2" fill="#9aa0b6" opacity="0.25"/>
  ${finish(0.25)}`
  );
};

// 6. A single lotus rising from dark water
art["beginners-mind"] = () => {
  const r = rng(66);
  const petal = (ang, len, wid, fill, op) =>
    `<g transform="rotate(${ang})" opacity="${op}"><path d="M0,0 C${f(-wid)},${f(-len * 0.35)} ${f(-wid * 0.55)},${f(-len * 0.85)} 0,${f(-len)} C${f(wid * 0.55)},${f(-len * 0.85)} ${f(wid)},${f(-len * 0.35)} 0,0 Z" fill="${fill}"/>
      <path d="M0,0 C${f(-wid)},${f(-len * 0.35)} ${f(-wid * 0.55)},${f(-len * 0.85)} 0,${f(-len)} C${f(wid * 0.55)},${f(-len * 0.85)} ${f(wid)},${f(-len * 0.35)} 0,0 Z" fill="none" stroke="#a98f66" stroke-width="1.5" opacity="0.5"/>
      <path d="M0,-6 C-3,${f(-len * 0.4)} -2,${f(-len * 0.75)} 0,${f(-len * 0.95)}" stroke="#b59a6a" stroke-width="1.3" fill="none" opacity="0.4"/></g>`;
  const pad = (x, y, rx, ry, rot, op) => {
    const notch = `M${x},${y} L${f(x + rx * 1.05)},${f(y - ry * 0.18)} L${f(x + rx * 1.05)},${f(y + ry * 0.12)} Z`;
    let veins = "";
    for (let i = 0; i < 9; i++) {
      const a = 0.35 + (i / 9) * (Math.PI * 2 - 0.7);
      veins += `<path d="M${x},${y} L${f(x + Math.cos(a) * rx * 0.9)},${f(y + Math.sin(a) * ry * 0.9)}"/>`;
    }
    return `<g transform="rotate(${rot} ${x} ${y})" opacity="${op}">
      <ellipse cx="${x + 6}" cy="${y + 8}" rx="${rx}" ry="${ry}" fill="#0c1020" opacity="0.5" filter="url(#soft)"/>
      <path d="${blob(r, x, y, rx, ry, 12, 0.06)}" fill="url(#pad)"/>
      <path d="${notch}" fill="#22293f"/>
      <g stroke="#9aa37d" stroke-width="1.5" opacity="0.35">${veins}</g>
    </g>`;
  };
  return svg(
    66,
    `
    <linearGradient id="bg" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#454c63"/><stop offset="0.55" stop-color="${C.indigo}"/><stop offset="1" stop-color="${C.indigoDeep}"/>
    </linearGradient>
    <linearGradient id="petalBack" x1="0" y1="1" x2="0" y2="0">
      <stop offset="0" stop-color="#cdb88e"/><stop offset="0.8" stop-color="#e8dcc2"/><stop offset="1" stop-color="#d9b9a0"/>
    </linearGradient>
    <linearGradient id="petalFront" x1="0" y1="1" x2="0" y2="0">
      <stop offset="0" stop-color="#dcc9a0"/><stop offset="0.65" stop-color="#f6eedc"/><stop offset="1" stop-color="#e6c6ad"/>
    </linearGradient>
    <radialGradient id="lglow" cx="50%" cy="50%" r="50%">
      <stop offset="0" stop-color="#e8d8b0" stop-opacity="0.32"/><stop offset="1" stop-color="#e8d8b0" stop-opacity="0"/>
    </radialGradient>
    <radialGradient id="pad" cx="40%" cy="35%" r="75%">
      <stop offset="0" stop-color="#7c875f"/><stop offset="1" stop-color="#3c442e"/>
    </radialGradient>`,
    `
  <rect width="${W}" height="${H}" fill="url(#bg)"/>
  <rect width="${W}" height="${H}" filter="url(#mottle)" opacity="0.2"/>
  <circle cx="600" cy="380" r="340" fill="url(#lglow)"/>
  <g stroke="#cfc4a8" stroke-linecap="round" opacity="0.12" filter="url(#wobble)">
    <path d="M60,560 H420 M780,585 H1150 M120,700 H520 M700,740 H1100 M300,630 H560" stroke-width="2"/>
  </g>
  ${pad(290, 672, 160, 38, -3, 0.95)}
  ${pad(920, 712, 140, 30, 4, 0.85)}
  ${pad(1010, 600, 88, 18, 0, 0.55)}
  ${pad(120, 585, 70, 14, 0, 0.45)}
  <path d="M600,560 C596,600 606,640 600,700" stroke="${C.mossDark}" stroke-width="9" fill="none"/>
  <ellipse cx="600" cy="572" rx="200" ry="20" fill="#0f1322" opacity="0.45" filter="url(#soft)"/>
  <g transform="translate(600 545)">
    ${petal(-80, 165, 58, "url(#petalBack)", 0.85)}
    ${petal(80, 165, 58, "url(#petalBack)", 0.85)}
    ${petal(-54, 198, 68, "url(#petalBack)", 0.92)}
    ${petal(54, 198, 68, "url(#petalBack)", 0.92)}
    ${petal(-26, 228, 76, "url(#petalFront)", 0.97)}
    ${petal(26, 228, 76, "url(#petalFront)", 0.97)}
    ${petal(0, 248, 80, "url(#petalFront)", 1)}
  </g>
  <g stroke="#e8d8b0" fill="none" stroke-linecap="round" opacity="0.3" filter="url(#wobble)">
    <path d="M470,600 H730" stroke-width="3"/><path d="M520,626 H680" stroke-width="2.5"/><path d="M560,650 H640" stroke-width="2"/>
  </g>
  ${finish(0.25)}`
  );
};

// 7. Layered mountains in mist, ink wash
art["the-four-noble-truths"] = () => {
  const r = rng(77);
  const layers = [
    [300, 260, 180, "#b9b4a8", 0.7],
    [380, 340, 200, "#9c988d", 0.8],
    [450, 470, 190, "#77746c", 0.85],
    [560, 520, 160, "#4f4d49", 0.9],
    [650, 690, 120, "#2a2826", 0.95],
  ];
  let defs = "";
  layers.forEach(([, , , col, op], i) => {
    defs += `<linearGradient id="m${i}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${col}" stop-opacity="${op}"/><stop offset="0.45" stop-color="${col}" stop-opacity="${(op * 0.35).toFixed(2)}"/><stop offset="0.8" stop-color="${col}" stop-opacity="0"/></linearGradient>`;
  });
  let body = "";
  layers.forEach(([y0, y1, rough], i) => {
    body += `<path d="${ridge(r, y0, y1, rough, 7, H + 40)}" fill="url(#m${i})" filter="url(#rough)"/>`;
    body += `<ellipse cx="${f(200 + r() * 800)}" cy="${f((y0 + y1) / 2 + 70)}" rx="${f(420 + r() * 200)}" ry="40" fill="${C.paper}" opacity="0.55" filter="url(#softer)"/>`;
  });
  return svg(
    77,
    defs,
    `${paperLayer(C.paper, 0.3, 0.4)}
  <circle cx="860" cy="200" r="52" fill="${C.ochre}" opacity="0.75" filter="url(#bleed)"/>
  ${body}
  <g stroke="${C.inkSoft}" stroke-width="2.4" fill="none" stroke-linecap="round" opacity="0.55">
    <path d="M330,170 q9,-7 18,0 q9,-7 18,0"/><path d="M378,150 q6,-5 12,0 q6,-5 12,0"/>
  </g>
  ${finish(0.25)}`
  );
};

// 8. Eight-spoked wheel, gold line on indigo
art["the-noble-eightfold-path"] = () => {
  let spokes = "";
  for (let i = 0; i < 8; i++) {
    const a = (i / 8) * Math.PI * 2 - Math.PI / 2;
    const x1 = 600 + Math.cos(a) * 62,
      y1 = 400 + Math.sin(a) * 62;
    const x2 = 600 + Math.cos(a) * 228,
      y2 = 400 + Math.sin(a) * 228;
    const n = 12,
      px = -Math.sin(a) * n,
      py = Math.cos(a) * n;
    spokes += `<path d="M${f(x1 + px * 0.5)},${f(y1 + py * 0.5)} L${f(x2 + px * 0.25)},${f(y2 + py * 0.25)} L${f(x2 - px * 0.25)},${f(y2 - py * 0.25)} L${f(x1 - px * 0.5)},${f(y1 - py * 0.5)} Z"/>`;
    const bx = 600 + Math.cos(a) * 296,
      by = 400 + Math.sin(a) * 296;
    spokes += `<circle cx="${f(bx)}" cy="${f(by)}" r="7"/>`;
    const a2 = a + Math.PI / 8;
    spokes += `<circle cx="${f(600 + Math.cos(a2) * 150)}" cy="${f(400 + Math.sin(a2) * 150)}" r="3.5" opacity="0.6"/>`;
  }
  return svg(
    88,
    `
    <radialGradient id="ind" cx="50%" cy="48%" r="70%">
      <stop offset="0" stop-color="#354062"/><stop offset="0.6" stop-color="${C.indigo}"/><stop offset="1" stop-color="${C.indigoDeep}"/>
    </radialGradient>
    <radialGradient id="wglow" cx="50%" cy="50%" r="50%">
      <stop offset="0" stop-color="${C.ochreSoft}" stop-opacity="0.28"/><stop offset="1" stop-color="${C.ochreSoft}" stop-opacity="0"/>
    </radialGradient>
    <linearGradient id="gold" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#dcc08a"/><stop offset="0.5" stop-color="${C.ochre}"/><stop offset="1" stop-color="#9c7436"/>
    </linearGradient>`,
    `
  <rect width="${W}" height="${H}" fill="url(#ind)"/>
  <rect width="${W}" height="${H}" filter="url(#mottle)" opacity="0.2"/>
  <circle cx="600" cy="400" r="380" fill="url(#wglow)"/>
  <g fill="none" stroke="url(#gold)" filter="url(#rough)">
    <circle cx="600" cy="400" r="262" stroke-width="14"/>
    <circle cx="600" cy="400" r="238" stroke-width="3" opacity="0.7"/>
    <circle cx="600" cy="400" r="330" stroke-width="1.5" opacity="0.35"/>
    <circle cx="600" cy="400" r="62" stroke-width="8"/>
  </g>
  <g fill="url(#gold)" filter="url(#rough)">${spokes}
    <circle cx="600" cy="400" r="30"/>
  </g>
  <circle cx="600" cy="400" r="12" fill="${C.indigoDeep}" opacity="0.7"/>
  ${finish(0.25)}`
  );
};

// 9. Three nested black bowls on an indigo cloth
art["oryoki-mindful-eating"] = () => {
  const bowl = (cx, cy, rx, depth, id) => {
    const ry = rx * 0.3;
    return `
    <ellipse cx="${cx + 10}" cy="${cy + depth + 6}" rx="${rx * 0.9}" ry="${f(ry * 0.6)}" fill="#000" opacity="0.4" filter="url(#soft)"/>
    <path d="M${cx - rx},${cy} C${cx - rx},${cy + depth * 1.2} ${cx - rx * 0.45},${cy + depth} ${cx},${cy + depth} C${cx + rx * 0.45},${cy + depth} ${cx + rx},${cy + depth * 1.2} ${cx + rx},${cy} Z" fill="url(#lacq${id})"/>
    <ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${f(ry)}" fill="#141210"/>
    <ellipse cx="${cx}" cy="${cy + 4}" rx="${rx - 10}" ry="${f(ry - 6)}" fill="url(#inside)"/>
    <ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${f(ry)}" fill="none" stroke="#9a8e7c" stroke-width="2" opacity="0.55"/>
    <path d="M${cx - rx * 0.78},${cy + depth * 0.3} C${cx - rx * 0.6},${cy + depth * 0.7} ${cx - rx * 0.3},${cy + depth * 0.82} ${cx - rx * 0.05},${cy + depth * 0.86}" stroke="#e6dcc8" stroke-width="6" fill="none" opacity="0.16" filter="url(#bleed)"/>`;
  };
  const lacq = (id) =>
    `<linearGradient id="lacq${id}" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#0e0d0c"/><stop offset="0.28" stop-color="#3e3833"/><stop offset="0.55" stop-color="#1b1917"/><stop offset="1" stop-color="#090808"/></linearGradient>`;
  return svg(
    99,
    `${lacq(1)}${lacq(2)}${lacq(3)}
    <radialGradient id="inside" cx="50%" cy="30%" r="80%">
      <stop offset="0" stop-color="#4a433b"/><stop offset="1" stop-color="#1a1816"/>
    </radialGradient>
    <linearGradient id="cloth" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#4a5470"/><stop offset="1" stop-color="#2a3350"/>
    </linearGradient>
    <linearGradient id="wall" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#e8dfcc"/><stop offset="1" stop-color="#d9ccb1"/>
    </linearGradient>
    <linearGradient id="wood" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#8c7a60"/><stop offset="1" stop-color="#5e4f3c"/>
    </linearGradient>
    <linearGradient id="light" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="#fbf2dc" stop-opacity="0"/><stop offset="0.5" stop-color="#fbf2dc" stop-opacity="0.5"/><stop offset="1" stop-color="#fbf2dc" stop-opacity="0"/>
    </linearGradient>`,
    `
  <rect width="${W}" height="${H}" fill="url(#wall)"/>
  <rect width="${W}" height="${H}" filter="url(#mottle)" opacity="0.2"/>
  <polygon points="760,0 1000,0 820,420 560,420" fill="url(#light)" opacity="0.6" filter="url(#soft)"/>
  <rect y="400" width="${W}" height="400" fill="url(#wood)"/>
  <g stroke="#4a3d2d" stroke-width="2" opacity="0.3"><path d="M0,470 H1200 M0,560 H1200 M0,680 H1200"/></g>
  <rect y="396" width="${W}" height="8" fill="#a8967a"/>
  <path d="M200,446 L1010,436 L1090,736 L110,752 Z" fill="#000" opacity="0.3" filter="url(#soft)"/>
  <path d="M210,440 L1000,430 L1080,728 L120,744 Z" fill="url(#cloth)"/>
  <path d="M210,440 L1000,430 L1080,728 L120,744 Z" filter="url(#mottle)" opacity="0.2"/>
  <g stroke="#1d2438" stroke-width="2.5" opacity="0.45" fill="none">
    <path d="M165,592 C450,586 760,582 1040,578"/><path d="M605,436 C603,540 600,640 600,736"/>
  </g>
  <g stroke="#6c7694" stroke-width="1.5" opacity="0.35" fill="none">
    <path d="M165,596 C450,590 760,586 1040,582"/><path d="M609,436 C607,540 604,640 604,736"/>
  </g>
  <rect x="250" y="640" width="240" height="42" rx="3" fill="${C.ochre}" opacity="0.9" transform="rotate(-1.5 370 661)"/>
  <path d="M272,653 L468,648 M272,666 L468,661" stroke="#2a2520" stroke-width="4" stroke-linecap="round"/>
  <path d="M520,660 C560,655 600,652 650,650 M650,650 c18,-6 34,-2 34,6 c0,8 -18,10 -34,4" stroke="#2a2520" stroke-width="5" fill="none" stroke-linecap="round"/>
  ${bowl(430, 488, 150, 120, 1)}
  ${bowl(700, 500, 118, 95, 2)}
  ${bowl(900, 514, 88, 72, 3)}
  ${finish(0.3)}`
  );
};

// 10. Bamboo in ink wash
art["the-buddhist-precepts"] = () => {
  const r = rng(1010);
  const stalks = [
    [330, 26, "#8f8c84", 0.55, 3],
    [470, 34, C.inkSoft, 0.9, -2],
    [620, 22, "#a5a29a", 0.45, 4],
    [760, 30, C.ink, 0.85, 1],
    [905, 20, "#9a978f", 0.5, -3],
  ];
  const xAt = (i, y) => {
    const [x, , , , lean] = stalks[i];
    return x + lean * 12 - lean * 0.06 * (H + 20 - y);
  };
  let body = "";
  for (const [x, w, col, op, lean] of stalks) {
    let segs = "";
    let y = H + 20;
    let cx = x + lean * 12;
    while (y > -60) {
      const len = 110 + r() * 70;
      const nx = cx - lean * 0.06 * len;
      const y2 = y - len;
      segs += `<path d="M${f(cx - w / 2)},${f(y - 6)} L${f(nx - w / 2 + 2)},${f(y2 + 6)} L${f(nx + w / 2 - 2)},${f(y2 + 6)} L${f(cx + w / 2)},${f(y - 6)} Z"/>`;
      segs += `<path d="M${f(nx - w / 2 - 4)},${f(y2 + 2)} q${f(w / 2 + 4)},-8 ${f(w + 8)},0" stroke="${col}" stroke-width="5" fill="none"/>`;
      y = y2;
      cx = nx;
    }
    body += `<g fill="${col}" opacity="${op}" filter="url(#bleed)">${segs}</g>`;
  }
  // leaf clusters, each attached to a stalk: [stalk index, y, direction]
  const clusters = [
    [1, 250, 1],
    [3, 160, 1],
    [3, 450, -1],
    [0, 420, 1],
    [4, 320, -1],
    [2, 110, -1],
  ];
  for (const [si, y, dir] of clusters) {
    const [, w, col, op] = stalks[si];
    const x = xAt(si, y) + (dir * w) / 2;
    const tx = x + dir * 46,
      ty = y + 6;
    let leaves = "";
    const n = 4 + Math.floor(r() * 3);
    for (let i = 0; i < n; i++) {
      const base = dir > 0 ? 0.5 : Math.PI - 0.5;
      const ang = base + (r() - 0.5) * 1.2 * dir + 0.25 * dir;
      leaves += `<path d="${leaf(tx + (r() - 0.5) * 8, ty + (r() - 0.5) * 8, 110 + r() * 70, 13 + r() * 6, ang)}"/>`;
    }
    body += `<path d="M${f(x)},${y} Q${f(x + dir * 26)},${y - 6} ${f(tx)},${f(ty)}" stroke="${col}" stroke-width="3" fill="none" opacity="${op}"/>`;
    body += `<g fill="${col}" opacity="${op}" filter="url(#bleed)">${leaves}</g>`;
  }
  return svg(
    1010,
    ``,
    `${paperLayer(C.paper, 0.3, 0.2)}
  <ellipse cx="620" cy="420" rx="420" ry="300" fill="${C.moss}" opacity="0.12" filter="url(#softer)"/>
  ${body}
  <rect x="0" y="640" width="${W}" height="160" fill="${C.paper}" opacity="0.35" filter="url(#softer)"/>
  ${seal(1040, 640, 44, 58, "M12,14 h20 M22,14 v32 M12,46 h20")}
  ${finish(0.12)}`
  );
};

// 11. Raked gravel garden with rocks
art["a-day-at-sesshin"] = () => {
  const r = rng(1111);
  const rocks = [
    [360, 330, 95, 62, 0],
    [850, 520, 130, 84, 0],
    [952, 500, 52, 40, 1],
  ];
  let rings = "";
  for (const [x, y, rx, ry] of rocks.slice(0, 2)) {
    for (let i = 1; i <= 7; i++) rings += `<ellipse cx="${x}" cy="${y + 10}" rx="${rx + i * 22}" ry="${f(ry * 0.62 + i * 15)}"/>`;
  }
  let lines = "";
  for (let y = -20; y < H + 40; y += 22) {
    let d = `M-20,${y}`;
    for (let x = -20; x <= W + 40; x += 60) d += ` Q${x + 30},${f(y + Math.sin(x / 180) * 6)} ${x + 60},${y}`;
    lines += `<path d="${d}"/>`;
  }
  const holes = rocks
    .slice(0, 2)
    .map(([x, y, rx, ry]) => `<ellipse cx="${x}" cy="${y + 10}" rx="${rx + 7 * 22 + 10}" ry="${f(ry * 0.62 + 7 * 15 + 10)}" fill="#000"/>`)
    .join("");
  let rockSvg = "";
  for (const [x, y, rx, ry] of rocks) {
    rockSvg += `<ellipse cx="${x + 14}" cy="${f(y + ry * 0.45)}" rx="${f(rx * 1.15)}" ry="${f(ry * 0.35)}" fill="#2f2d2a" opacity="0.55" filter="url(#soft)"/>`;
    rockSvg += `<path d="${blob(r, x, y + ry * 0.35, rx * 1.18, ry * 0.4, 12, 0.3)}" fill="${C.moss}" opacity="0.85" filter="url(#bleed)"/>`;
    rockSvg += `<path d="${blob(r, x, y, rx, ry, 9, 0.28, 0.55)}" fill="url(#rockG)"/>`;
    rockSvg += `<path d="${blob(r, x - rx * 0.22, y - ry * 0.38, rx * 0.42, ry * 0.22, 7, 0.3)}" fill="#d9d3c4" opacity="0.18" filter="url(#bleed)"/>`;
    rockSvg += `<path d="${blob(r, x + rx * 0.1, y + ry * 0.36, rx * 0.95, ry * 0.14, 10, 0.35)}" fill="${C.mossDark}" opacity="0.6" filter="url(#bleed)"/>`;
  }
  return svg(
    1111,
    `
    <mask id="notRings"><rect width="${W}" height="${H}" fill="#fff"/>${holes}</mask>
    <linearGradient id="gravel" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#dcd7cb"/><stop offset="1" stop-color="#c6c0b3"/>
    </linearGradient>
    <radialGradient id="rockG" cx="35%" cy="22%" r="90%">
      <stop offset="0" stop-color="#9a968d"/><stop offset="0.55" stop-color="#5b5852"/><stop offset="1" stop-color="#2c2a27"/>
    </radialGradient>`,
    `
  <rect width="${W}" height="${H}" fill="url(#gravel)"/>
  <rect width="${W}" height="${H}" filter="url(#mottle)" opacity="0.25"/>
  <g fill="none" stroke-linecap="round">
    <g mask="url(#notRings)">
      <g stroke="#8e897e" stroke-width="5" opacity="0.5" transform="translate(0 4)">${lines}</g>
      <g stroke="#f3efe6" stroke-width="4" opacity="0.6">${lines}</g>
    </g>
    <g stroke="#8e897e" stroke-width="5" opacity="0.5" transform="translate(0 4)">${rings}</g>
    <g stroke="#f3efe6" stroke-width="4" opacity="0.6">${rings}</g>
  </g>
  ${rockSvg}
  ${finish(0.15)}`
  );
};

fs.mkdirSync(OUT, { recursive: true });
for (const [slug, make] of Object.entries(art)) {
  fs.writeFileSync(path.join(OUT, `${slug}.svg`), make());
  console.log("wrote", path.join("scripts/content/svg", `${slug}.svg`));
}
