#!/usr/bin/env node
/**
 * Writes the flat illustrations of Collab Ideas and Video Guides (no text inside, so nothing to
 * translate), in one style: the two overlapping circles of the Tandem mark behind a simple
 * object, the indigo of the app and one accent colour per picture.
 *
 *   node scripts/content-illustrations.mjs      (from web/)
 *
 * public/collab/<slug>.svg           an idea (320 x 200)
 * public/collab/examples/<slug>.svg  the idea's example: the two fictional partners' products
 * public/videos/<slug>.svg           a video guide's poster (640 x 360)
 *
 * The slugs must match layers/core/python/tandem/content/data (tests/unit/test_content.py
 * checks that every picture the content names exists).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PUBLIC = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');

const P = '#4f46e5'; // indigo, the app's brand colour
const P2 = '#6366f1';
const IL = '#c7d2fe';
const INK = '#312e81';
const W = '#ffffff';
const ACCENTS = {
  amber: { a: '#f59e0b', light: '#fde68a', bg: '#fffbeb' },
  emerald: { a: '#10b981', light: '#a7f3d0', bg: '#ecfdf5' },
  rose: { a: '#f43f5e', light: '#fecdd3', bg: '#fff1f2' },
  sky: { a: '#0ea5e9', light: '#bae6fd', bg: '#f0f9ff' },
};

const heart = (x, y, s, fill) =>
  `<path transform="translate(${x} ${y}) scale(${s})" d="M0 6C0-2 10-4 12 4 14-4 24-2 24 6 24 14 12 20 12 22 12 20 0 14 0 6Z" fill="${fill}"/>`;

/* ------------------------------------------------------------ idea icons (100 x 100 box) */
const ICONS = {
  'joint-giveaway': ({ a, light }) => `
    <rect x="20" y="46" width="60" height="44" rx="4" fill="${P}"/>
    <rect x="14" y="34" width="72" height="16" rx="4" fill="${P2}"/>
    <rect x="45" y="34" width="10" height="56" fill="${a}"/>
    <ellipse cx="40" cy="27" rx="11" ry="6" transform="rotate(-25 40 27)" fill="${a}"/>
    <ellipse cx="60" cy="27" rx="11" ry="6" transform="rotate(25 60 27)" fill="${a}"/>
    <circle cx="50" cy="31" r="5" fill="${a}"/>
    <circle cx="10" cy="24" r="3" fill="${light}"/><rect x="86" y="16" width="6" height="6" rx="1" transform="rotate(20 89 19)" fill="${IL}"/>
    <circle cx="92" cy="40" r="2.5" fill="${a}"/><rect x="4" y="44" width="5" height="5" rx="1" fill="${P2}"/>`,
  'newsletter-swap': ({ a, light }) => `
    <rect x="6" y="24" width="56" height="38" rx="4" fill="${P}"/>
    <path d="M6 28 34 48 62 28" fill="none" stroke="${W}" stroke-width="3" stroke-linejoin="round"/>
    <rect x="38" y="46" width="56" height="38" rx="4" fill="${a}"/>
    <path d="M38 50 66 70 94 50" fill="none" stroke="${W}" stroke-width="3" stroke-linejoin="round"/>
    <path d="M70 20q14 0 14 14" fill="none" stroke="${P2}" stroke-width="3" stroke-linecap="round"/>
    <path d="m79 30 5 6 5-6" fill="none" stroke="${P2}" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>
    <path d="M30 88q-14 0-14-14" fill="none" stroke="${light}" stroke-width="3" stroke-linecap="round"/>`,
  'discount-code-swap': ({ a }) => `
    <g transform="rotate(-14 34 46)">
      <path d="M8 30h40l14 16-14 16H8z" fill="${P}"/><circle cx="50" cy="46" r="3.5" fill="${W}"/>
      <circle cx="20" cy="40" r="4" fill="none" stroke="${W}" stroke-width="2.5"/><circle cx="34" cy="52" r="4" fill="none" stroke="${W}" stroke-width="2.5"/>
      <path d="m36 38-18 16" stroke="${W}" stroke-width="2.5" stroke-linecap="round"/>
    </g>
    <g transform="rotate(12 62 62)">
      <path d="M36 46h40l14 16-14 16H36z" fill="${a}"/><circle cx="78" cy="62" r="3.5" fill="${W}"/>
      <circle cx="48" cy="56" r="4" fill="none" stroke="${W}" stroke-width="2.5"/><circle cx="62" cy="68" r="4" fill="none" stroke="${W}" stroke-width="2.5"/>
      <path d="m64 54-18 16" stroke="${W}" stroke-width="2.5" stroke-linecap="round"/>
    </g>`,
  'content-swap': ({ a, light }) => `
    <rect x="6" y="14" width="48" height="42" rx="4" fill="${W}" stroke="${IL}" stroke-width="2"/>
    <rect x="11" y="19" width="38" height="26" rx="2" fill="${IL}"/>
    <path d="M11 45l12-14 9 9 6-6 11 11z" fill="${P}"/><circle cx="40" cy="26" r="4" fill="${a}"/>
    <rect x="46" y="46" width="48" height="42" rx="4" fill="${W}" stroke="${light}" stroke-width="2"/>
    <rect x="51" y="51" width="38" height="26" rx="2" fill="${light}"/>
    <path d="M51 77l12-14 9 9 6-6 11 11z" fill="${a}"/><circle cx="80" cy="58" r="4" fill="${P}"/>
    <path d="M62 24q18 0 20 16" fill="none" stroke="${P2}" stroke-width="3" stroke-linecap="round"/>
    <path d="m77 36 5 6 5-6" fill="none" stroke="${P2}" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>
    <path d="M38 80q-18 0-20-14" fill="none" stroke="${a}" stroke-width="3" stroke-linecap="round"/>
    <path d="m13 70 5-6 5 6" fill="none" stroke="${a}" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>`,
  'guest-blog-post': ({ a }) => `
    <rect x="18" y="10" width="54" height="76" rx="4" fill="${W}" stroke="${IL}" stroke-width="2"/>
    <rect x="26" y="20" width="30" height="6" rx="2" fill="${P}"/>
    <rect x="26" y="32" width="38" height="14" rx="2" fill="${IL}"/>
    <rect x="26" y="52" width="38" height="4" rx="2" fill="${IL}"/><rect x="26" y="60" width="32" height="4" rx="2" fill="${IL}"/>
    <rect x="26" y="68" width="36" height="4" rx="2" fill="${IL}"/>
    <g transform="rotate(38 72 60)"><rect x="66" y="30" width="12" height="46" rx="3" fill="${a}"/>
    <path d="M66 76h12l-6 12z" fill="${INK}"/><rect x="66" y="30" width="12" height="8" rx="3" fill="${P}"/></g>`,
  'social-takeover': ({ a, light }) => `
    <rect x="30" y="6" width="40" height="86" rx="8" fill="${INK}"/>
    <rect x="34" y="14" width="32" height="70" rx="3" fill="${W}"/>
    <circle cx="42" cy="24" r="5" fill="${IL}" stroke="${a}" stroke-width="2"/>
    <circle cx="58" cy="24" r="5" fill="${light}" stroke="${P}" stroke-width="2"/>
    <rect x="37" y="34" width="26" height="26" rx="2" fill="${light}"/><circle cx="50" cy="45" r="6" fill="${a}"/>
    <rect x="37" y="64" width="20" height="3" rx="1.5" fill="${IL}"/><rect x="37" y="70" width="14" height="3" rx="1.5" fill="${IL}"/>
    <path d="M78 30q12 10 0 24M84 24q18 16 0 36" fill="none" stroke="${a}" stroke-width="3" stroke-linecap="round"/>
    <path d="M22 30q-12 10 0 24" fill="none" stroke="${P2}" stroke-width="3" stroke-linecap="round"/>`,
  'product-bundle': ({ a, light }) => `
    <rect x="32" y="14" width="7" height="10" fill="${a}"/><rect x="28" y="22" width="15" height="34" rx="4" fill="${a}"/>
    <rect x="52" y="30" width="22" height="6" rx="2" fill="${INK}"/><rect x="53" y="35" width="20" height="22" rx="4" fill="${light}"/>
    <path d="M18 52 8 42h28l10 10z" fill="${P2}"/><path d="M82 52l10-10H64l-10 10z" fill="${P2}"/>
    <rect x="18" y="52" width="64" height="38" rx="3" fill="${P}"/>
    <rect x="40" y="64" width="20" height="12" rx="2" fill="${W}"/>`,
  'gift-with-purchase': ({ a }) => `
    <path d="M28 36v-8a12 12 0 0 1 24 0v8" fill="none" stroke="${P}" stroke-width="4"/>
    <rect x="14" y="34" width="52" height="56" rx="4" fill="${P}"/>
    <circle cx="28" cy="42" r="2.5" fill="${W}"/><circle cx="52" cy="42" r="2.5" fill="${W}"/>
    <rect x="56" y="58" width="32" height="32" rx="3" fill="${a}"/><rect x="69" y="58" width="6" height="32" fill="${W}"/>
    <circle cx="66" cy="54" r="5" fill="none" stroke="${a}" stroke-width="3"/><circle cx="78" cy="54" r="5" fill="none" stroke="${a}" stroke-width="3"/>`,
  'product-sampling': ({ a, light }) => `
    <rect x="24" y="24" width="18" height="32" rx="2" transform="rotate(-12 33 40)" fill="${a}"/>
    <rect x="46" y="18" width="18" height="36" rx="2" transform="rotate(8 55 36)" fill="${W}" stroke="${IL}" stroke-width="2"/>
    <circle cx="55" cy="32" r="4" fill="${P}"/>
    <rect x="64" y="30" width="20" height="26" rx="2" transform="rotate(18 74 43)" fill="${light}"/>
    <path d="M14 50 6 40h30l8 10zM86 50l8-10H64l-8 10z" fill="${P2}"/>
    <rect x="14" y="50" width="72" height="40" rx="3" fill="${P}"/><rect x="44" y="50" width="12" height="40" fill="${IL}"/>`,
  'subscription-box-insert': ({ a }) => `
    <rect x="14" y="44" width="58" height="44" rx="3" fill="${P}"/>
    <rect x="10" y="34" width="66" height="14" rx="3" fill="${P2}"/><rect x="38" y="34" width="10" height="54" fill="${IL}"/>
    <circle cx="76" cy="30" r="17" fill="${a}"/>
    <path d="M68 31a8 8 0 1 0 3-7" fill="none" stroke="${W}" stroke-width="3" stroke-linecap="round"/>
    <path d="m66 20 5 4-5 5" fill="none" stroke="${W}" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>`,
  'referral-swap': ({ a, light }) => `
    <rect x="8" y="14" width="84" height="66" rx="6" fill="${W}" stroke="${IL}" stroke-width="2"/>
    <path d="M8 20a6 6 0 0 1 6-6h72a6 6 0 0 1 6 6v8H8z" fill="${P}"/>
    <circle cx="16" cy="21" r="2" fill="${W}"/><circle cx="23" cy="21" r="2" fill="${W}"/><circle cx="30" cy="21" r="2" fill="${W}"/>
    <circle cx="34" cy="52" r="15" fill="${a}"/><path d="m27 52 5 5 10-10" fill="none" stroke="${W}" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"/>
    <rect x="58" y="36" width="26" height="34" rx="3" fill="${light}"/><circle cx="71" cy="49" r="7" fill="${P}"/>
    <rect x="62" y="61" width="18" height="4" rx="2" fill="${W}"/>`,
  'loyalty-swap': ({ a, light }) => `
    <rect x="20" y="18" width="72" height="46" rx="6" transform="rotate(9 56 41)" fill="${light}"/>
    <rect x="8" y="30" width="76" height="48" rx="6" fill="${P}"/>
    <path d="m22 38 2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z" fill="${a}"/>
    <rect x="38" y="42" width="36" height="4" rx="2" fill="${IL}"/>
    ${[20, 33, 46, 59, 72].map((x, i) => (i < 3 ? `<circle cx="${x}" cy="66" r="5" fill="${a}"/>` : `<circle cx="${x}" cy="66" r="4.5" fill="none" stroke="${W}" stroke-width="2"/>`)).join('')}`,
  'affiliate-partnership': ({ a, light }) => `
    <g transform="rotate(-35 50 52)">
      <rect x="12" y="40" width="44" height="24" rx="12" fill="none" stroke="${P}" stroke-width="9"/>
      <rect x="44" y="40" width="44" height="24" rx="12" fill="none" stroke="${a}" stroke-width="9"/>
    </g>
    <circle cx="80" cy="22" r="11" fill="${light}"/><circle cx="80" cy="22" r="6" fill="none" stroke="${a}" stroke-width="2.5"/>
    <circle cx="18" cy="82" r="7" fill="${IL}"/>`,
  'seasonal-gift-guide': ({ a, light }) => `
    <path d="M50 22Q32 12 10 18v64q22-6 40 4z" fill="${W}" stroke="${IL}" stroke-width="2"/>
    <path d="M50 22q18-10 40-4v64q-22-6-40 4z" fill="${W}" stroke="${IL}" stroke-width="2"/>
    <rect x="20" y="32" width="20" height="18" rx="2" fill="${a}"/><rect x="28" y="32" width="4" height="18" fill="${W}"/>
    <rect x="18" y="58" width="24" height="4" rx="2" fill="${IL}"/><rect x="18" y="66" width="18" height="4" rx="2" fill="${IL}"/>
    ${heart(58, 32, 0.9, P)}
    <rect x="58" y="58" width="24" height="4" rx="2" fill="${light}"/><rect x="58" y="66" width="18" height="4" rx="2" fill="${light}"/>`,
  'shared-photoshoot': ({ a, light }) => `
    <rect x="30" y="22" width="24" height="12" rx="3" fill="${P}"/>
    <rect x="10" y="30" width="80" height="54" rx="8" fill="${P}"/>
    <circle cx="50" cy="57" r="19" fill="${W}"/><circle cx="50" cy="57" r="12" fill="${a}"/><circle cx="45" cy="52" r="3.5" fill="${W}"/>
    <rect x="72" y="38" width="10" height="6" rx="2" fill="${light}"/>`,
  'ugc-challenge': ({ a, light }) => `
    <rect x="14" y="12" width="32" height="32" rx="4" fill="${IL}"/><path d="M14 44l10-12 8 7 6-5 8 10z" fill="${P}"/>
    <rect x="52" y="12" width="32" height="32" rx="4" fill="${light}"/><circle cx="68" cy="28" r="7" fill="${a}"/>
    <rect x="14" y="50" width="32" height="32" rx="4" fill="${light}"/><circle cx="30" cy="66" r="7" fill="${P}"/>
    <rect x="52" y="50" width="32" height="32" rx="4" fill="${IL}"/><path d="M52 82l10-12 8 7 6-5 8 10z" fill="${a}"/>
    <circle cx="84" cy="80" r="14" fill="${a}"/>${heart(76, 73, 0.68, W)}`,
  'live-stream': ({ a }) => `
    <rect x="38" y="12" width="24" height="44" rx="12" fill="${P}"/>
    <path d="M44 24h12M44 32h12M44 40h12" stroke="${IL}" stroke-width="2.5" stroke-linecap="round"/>
    <path d="M30 44v2a20 20 0 0 0 40 0v-2" fill="none" stroke="${P}" stroke-width="4" stroke-linecap="round"/>
    <rect x="48" y="66" width="4" height="14" fill="${P}"/><rect x="36" y="80" width="28" height="5" rx="2.5" fill="${P}"/>
    <circle cx="82" cy="20" r="7" fill="${a}"/>
    <path d="M74 8q-6 12 0 24M90 8q6 12 0 24" fill="none" stroke="${a}" stroke-width="2.5" stroke-linecap="round"/>`,
  workshop: ({ a, light }) => `
    <path d="M30 86 44 20M70 86 56 20M50 60v26" stroke="${INK}" stroke-width="4" stroke-linecap="round"/>
    <rect x="20" y="12" width="60" height="46" rx="3" fill="${W}" stroke="${IL}" stroke-width="2"/>
    <circle cx="64" cy="26" r="6" fill="${a}"/><path d="M24 54l16-18 10 10 8-6 18 14z" fill="${P}"/>
    <ellipse cx="80" cy="80" rx="15" ry="10" fill="${light}"/>
    <circle cx="74" cy="78" r="2.5" fill="${P}"/><circle cx="81" cy="75" r="2.5" fill="${a}"/><circle cx="87" cy="80" r="2.5" fill="${INK}"/>`,
  'charity-tie-in': ({ a, light }) => `
    ${heart(12, 22, 2.2, P)}
    ${heart(40, 34, 2.2, a)}
    <circle cx="14" cy="84" r="3" fill="${light}"/><circle cx="90" cy="20" r="3" fill="${IL}"/>`,
  'joint-press-pitch': ({ a, light }) => `
    <rect x="12" y="16" width="76" height="68" rx="4" fill="${W}" stroke="${IL}" stroke-width="2"/>
    <rect x="20" y="24" width="60" height="8" rx="2" fill="${P}"/>
    <rect x="20" y="40" width="28" height="24" rx="2" fill="${light}"/><circle cx="34" cy="52" r="6" fill="${a}"/>
    <rect x="54" y="40" width="26" height="4" rx="2" fill="${IL}"/><rect x="54" y="48" width="26" height="4" rx="2" fill="${IL}"/>
    <rect x="54" y="56" width="20" height="4" rx="2" fill="${IL}"/>
    <rect x="20" y="70" width="60" height="4" rx="2" fill="${IL}"/><rect x="20" y="77" width="44" height="3" rx="1.5" fill="${IL}"/>`,
  'corporate-gifting': ({ a }) => `
    <rect x="12" y="54" width="46" height="34" rx="3" fill="${P}"/><rect x="32" y="54" width="6" height="34" fill="${a}"/>
    <rect x="20" y="30" width="30" height="24" rx="3" fill="${a}"/><rect x="32" y="30" width="6" height="24" fill="${W}"/>
    <rect x="60" y="62" width="30" height="26" rx="3" fill="${IL}"/><rect x="72" y="62" width="6" height="26" fill="${P}"/>
    <circle cx="31" cy="27" r="4" fill="none" stroke="${P}" stroke-width="2.5"/><circle cx="39" cy="27" r="4" fill="none" stroke="${P}" stroke-width="2.5"/>`,
  'retail-shelf-share': ({ a, light }) => `
    <rect x="20" y="20" width="12" height="28" rx="3" fill="${a}"/><rect x="23" y="14" width="6" height="8" fill="${a}"/>
    <rect x="38" y="28" width="18" height="20" rx="3" fill="${P}"/><rect x="36" y="24" width="22" height="5" rx="2" fill="${INK}"/>
    <rect x="62" y="24" width="20" height="24" rx="2" fill="${IL}"/>
    <rect x="8" y="48" width="84" height="5" rx="2" fill="${INK}"/>
    <rect x="18" y="64" width="22" height="20" rx="2" fill="${a}"/><path d="M23 64v-4a6 6 0 0 1 12 0v4" fill="none" stroke="${a}" stroke-width="3"/>
    <rect x="46" y="66" width="16" height="18" rx="3" fill="${P}"/><path d="M54 60q-3 3 0 6 3-3 0-6z" fill="${a}"/>
    <path d="M68 70h18l-3 14H71z" fill="${P2}"/><ellipse cx="77" cy="66" rx="6" ry="4" fill="${light}"/>
    <rect x="8" y="84" width="84" height="5" rx="2" fill="${INK}"/>`,
  'pop-up-shop': ({ a }) => `
    <rect x="14" y="40" width="72" height="48" fill="${W}" stroke="${IL}" stroke-width="2"/>
    ${[0, 1, 2, 3, 4].map((i) => `<path d="M${10 + i * 16} 24h16v16a8 8 0 0 1-16 0z" fill="${i % 2 ? W : a}" stroke="${a}" stroke-width="1.5"/>`).join('')}
    <rect x="8" y="18" width="84" height="8" rx="3" fill="${P}"/>
    <rect x="22" y="54" width="28" height="20" rx="2" fill="${IL}"/><rect x="58" y="56" width="18" height="32" rx="2" fill="${P}"/>
    <circle cx="72" cy="72" r="1.8" fill="${W}"/>`,
  'joint-event': ({ a, light }) => `
    <path d="M4 14q46 22 92 0" fill="none" stroke="${INK}" stroke-width="2"/>
    ${[
      [14, 18.5, a],
      [30, 23.5, P],
      [46, 25, light],
      [62, 24, IL],
      [78, 20, a],
    ]
      .map(([x, y, c]) => `<path d="M${x - 6} ${y}h12l-6 12z" fill="${c}"/>`)
      .join('')}
    <g transform="rotate(-14 36 64)"><path d="M26 44h20l-2 36H28z" fill="${P}"/><path d="M27 56h18l-1.3 22H28.4z" fill="${P2}"/></g>
    <g transform="rotate(14 64 64)"><path d="M54 44h20l-2 36H56z" fill="${a}"/><path d="M55 56h18l-1.3 22H56.4z" fill="${light}"/></g>
    <path d="M50 34v-6M42 37l-4-4M58 37l4-4" stroke="${a}" stroke-width="2.5" stroke-linecap="round"/>`,
  'limited-edition': ({ a, light }) => `
    <path d="M50 18q-8 10 0 16 8-6 0-16z" fill="${a}"/><rect x="49" y="32" width="2" height="8" fill="${INK}"/>
    <rect x="28" y="40" width="44" height="48" rx="6" fill="${P}"/><rect x="28" y="40" width="44" height="8" rx="4" fill="${IL}"/>
    <rect x="35" y="58" width="30" height="18" rx="2" fill="${W}"/>
    <path d="M70 48l-5 20 8-5 4 8 3-22zM82 48l5 20-8-5-4 8-3-22z" fill="${light}"/>
    <circle cx="76" cy="44" r="12" fill="${a}"/><circle cx="76" cy="44" r="5" fill="${W}"/>`,
  'co-branded-product': ({ a }) => `
    <rect x="44" y="10" width="12" height="18" rx="2" fill="${INK}"/>
    <rect x="30" y="26" width="40" height="64" rx="12" fill="${a}"/>
    <path d="M50 26v64H42a12 12 0 0 1-12-12V38a12 12 0 0 1 12-12z" fill="${P}"/>
    <circle cx="50" cy="58" r="13" fill="${W}"/>
    <circle cx="46" cy="58" r="6" fill="none" stroke="${P}" stroke-width="2.5"/><circle cx="54" cy="58" r="6" fill="none" stroke="${a}" stroke-width="2.5"/>`,
};

/* ------------------------------------------------- product glyphs (60 x 60 box, c1 + c2) */
const GLYPHS = {
  mug: (c1, c2) =>
    `<rect x="12" y="20" width="28" height="32" rx="4" fill="${c1}"/><path d="M40 28h3a8 8 0 0 1 0 16h-3" fill="none" stroke="${c1}" stroke-width="4"/><path d="M20 8q-3 4 0 8M28 8q-3 4 0 8" fill="none" stroke="${c2}" stroke-width="2.5" stroke-linecap="round"/>`,
  coffeeBag: (c1, c2) =>
    `<path d="M16 10h28l4 44H12z" fill="${c1}"/><rect x="16" y="10" width="28" height="6" fill="${c2}"/><circle cx="30" cy="34" r="7" fill="${W}"/><ellipse cx="30" cy="34" rx="3" ry="4.5" fill="${c2}"/>`,
  pumpBottle: (c1, c2) =>
    `<rect x="22" y="6" width="18" height="4" rx="2" fill="${c2}"/><rect x="27" y="10" width="6" height="10" fill="${c2}"/><rect x="18" y="20" width="24" height="36" rx="5" fill="${c1}"/><rect x="22" y="32" width="16" height="12" rx="2" fill="${W}"/>`,
  teacup: (c1, c2) =>
    `<path d="M10 24h34v6a17 17 0 0 1-34 0z" fill="${c1}"/><path d="M44 28h2a6 6 0 0 1 0 12h-4" fill="none" stroke="${c1}" stroke-width="3.5"/><ellipse cx="27" cy="50" rx="22" ry="4" fill="${c2}"/><path d="M22 10q-3 4 0 8M30 10q-3 4 0 8" fill="none" stroke="${c2}" stroke-width="2.5" stroke-linecap="round"/>`,
  mealBox: (c1, c2) =>
    `<rect x="8" y="22" width="44" height="32" rx="3" fill="${c1}"/><path d="M8 22l6-10h32l6 10z" fill="${c2}"/><path d="M24 44q0-12 12-14 0 12-12 14z" fill="${W}"/>`,
  pan: (c1, c2) =>
    `<circle cx="24" cy="32" r="18" fill="${c1}"/><circle cx="24" cy="32" r="12" fill="${c2}"/><rect x="40" y="29" width="18" height="6" rx="3" fill="${c1}"/>`,
  bread: (c1, c2) =>
    `<path d="M8 46V30a22 14 0 0 1 44 0v16z" fill="${c1}"/><path d="M18 26l6 8M28 22l6 8M38 24l6 8" stroke="${c2}" stroke-width="3" stroke-linecap="round"/>`,
  jar: (c1, c2) =>
    `<rect x="15" y="10" width="30" height="8" rx="2" fill="${c2}"/><rect x="13" y="18" width="34" height="36" rx="7" fill="${c1}"/><rect x="19" y="28" width="22" height="14" rx="2" fill="${W}"/>`,
  blocks: (c1, c2) =>
    `<rect x="8" y="34" width="20" height="20" rx="2" fill="${c1}"/><rect x="32" y="34" width="20" height="20" rx="2" fill="${c2}"/><rect x="20" y="12" width="20" height="20" rx="2" transform="rotate(8 30 22)" fill="${c1}"/><circle cx="30" cy="22" r="4" fill="${W}"/>`,
  blanket: (c1, c2) =>
    `<rect x="8" y="38" width="44" height="14" rx="4" fill="${c1}"/><rect x="10" y="24" width="40" height="14" rx="4" fill="${c2}"/><rect x="12" y="12" width="36" height="12" rx="4" fill="${c1}"/><path d="M20 12v12M30 12v12M40 12v12" stroke="${W}" stroke-width="2"/>`,
  shirt: (c1, c2) =>
    `<path d="M20 8 8 16l6 10 6-3v31h20V23l6 3 6-10-12-8q-4 6-10 6T20 8z" fill="${c1}"/><path d="M24 9q6 6 12 0" fill="none" stroke="${c2}" stroke-width="3"/>`,
  hotSauce: (c1, c2) =>
    `<rect x="25" y="4" width="10" height="8" rx="2" fill="${c2}"/><path d="M27 12h6v8l6 8v26H21V28l6-8z" fill="${c1}"/><path d="M26 40q4-8 10-6-2 8-10 6z" fill="${W}"/>`,
  chipsBag: (c1, c2) =>
    `<path d="M12 8h36l-4 6 4 6v20l-4 6 4 6H12l4-6-4-6V20l4-6z" fill="${c1}"/><path d="M22 26l16 4-10 10z" fill="${c2}"/>`,
  pawBag: (c1, c2) =>
    `<path d="M14 8h32l4 46H10z" fill="${c1}"/><circle cx="30" cy="36" r="6" fill="${c2}"/><circle cx="22" cy="27" r="3" fill="${c2}"/><circle cx="29" cy="24" r="3" fill="${c2}"/><circle cx="36" cy="25" r="3" fill="${c2}"/><circle cx="40" cy="31" r="3" fill="${c2}"/>`,
  bone: (c1) =>
    `<g transform="rotate(-30 30 30)"><rect x="14" y="25" width="32" height="10" fill="${c1}"/><circle cx="14" cy="24" r="6" fill="${c1}"/><circle cx="14" cy="36" r="6" fill="${c1}"/><circle cx="46" cy="24" r="6" fill="${c1}"/><circle cx="46" cy="36" r="6" fill="${c1}"/></g>`,
  spray: (c1, c2) =>
    `<path d="M20 8h18l6 6H34v6h-8v-6h-6z" fill="${c2}"/><rect x="18" y="20" width="24" height="36" rx="5" fill="${c1}"/><rect x="22" y="30" width="16" height="14" rx="2" fill="${W}"/>`,
  sachet: (c1, c2) =>
    `<path d="M12 12l4-4 4 4 4-4 4 4 4-4 4 4 4-4 4 4v40H12z" fill="${c1}"/><path d="M22 40q0-14 16-16 0 14-16 16z" fill="${c2}"/>`,
  giftBox: (c1, c2) =>
    `<rect x="10" y="24" width="40" height="30" rx="3" fill="${c1}"/><rect x="8" y="16" width="44" height="10" rx="2" fill="${c1}"/><rect x="27" y="16" width="6" height="38" fill="${c2}"/><circle cx="25" cy="12" r="4" fill="none" stroke="${c2}" stroke-width="2.5"/><circle cx="35" cy="12" r="4" fill="none" stroke="${c2}" stroke-width="2.5"/>`,
  spiceJar: (c1, c2) =>
    `<rect x="18" y="8" width="24" height="10" rx="2" fill="${c2}"/><circle cx="25" cy="13" r="1.5" fill="${W}"/><circle cx="30" cy="13" r="1.5" fill="${W}"/><circle cx="35" cy="13" r="1.5" fill="${W}"/><rect x="18" y="18" width="24" height="36" rx="4" fill="${c1}"/><rect x="22" y="28" width="16" height="12" rx="2" fill="${W}"/>`,
  vase: (c1, c2) =>
    `<path d="M30 28c-2-8-4-14-10-20M30 28c2-8 6-14 12-18M30 28V10" fill="none" stroke="${c2}" stroke-width="2.5" stroke-linecap="round"/><circle cx="20" cy="8" r="4" fill="${c2}"/><circle cx="42" cy="10" r="4" fill="${c2}"/><path d="M24 26h12q-2 6 4 12 4 8-2 16H22q-6-8-2-16 6-6 4-12z" fill="${c1}"/>`,
  paintTin: (c1, c2) =>
    `<rect x="12" y="20" width="36" height="34" rx="3" fill="${c1}"/><ellipse cx="30" cy="20" rx="18" ry="5" fill="${c2}"/><path d="M24 20v10a3 3 0 0 0 6 0v-8" fill="${c2}"/><rect x="18" y="34" width="24" height="10" rx="2" fill="${W}"/>`,
  pillow: (c1, c2) =>
    `<path d="M8 16q22-6 44 0-4 14 0 28-22 6-44 0 4-14 0-28z" fill="${c1}"/><path d="M10 30q20-4 40 0" fill="none" stroke="${c2}" stroke-width="3"/>`,
  candle: (c1, c2) =>
    `<path d="M30 6q-6 8 0 13 6-5 0-13z" fill="${c2}"/><rect x="29" y="18" width="2" height="6" fill="${INK}"/><rect x="14" y="24" width="32" height="30" rx="5" fill="${c1}"/><rect x="20" y="34" width="20" height="10" rx="2" fill="${W}"/>`,
  seedPacket: (c1, c2) =>
    `<path d="M14 12l4-4 4 4 4-4 4 4 4-4 4 4 4-4 4 4v42H14z" fill="${c1}"/><path d="M30 46V30" stroke="${W}" stroke-width="2.5"/><path d="M30 32q-8 0-8-8 8 0 8 8zM30 30q8 0 8-8-8 0-8 8z" fill="${c2}"/>`,
  plantPot: (c1, c2) =>
    `<path d="M30 30q-14-2-14-16 14 2 14 16zM30 30q14-2 14-16-14 2-14 16zM30 30V10" fill="${c2}" stroke="${c2}" stroke-width="2"/><path d="M14 30h32l-4 24H18z" fill="${c1}"/><rect x="12" y="28" width="36" height="6" rx="2" fill="${c1}"/>`,
  moon: (c1, c2) =>
    `<path d="M36 8a22 22 0 1 0 16 34A18 18 0 0 1 36 8z" fill="${c1}"/><circle cx="46" cy="14" r="2.5" fill="${c2}"/><circle cx="52" cy="26" r="1.8" fill="${c2}"/>`,
  yarn: (c1, c2) =>
    `<circle cx="28" cy="32" r="20" fill="${c1}"/><path d="M12 24q16 4 30 22M14 40q14-12 32-12M20 16q8 12 6 34" fill="none" stroke="${c2}" stroke-width="2"/><path d="M42 10l14 40M50 8l6 42" stroke="${INK}" stroke-width="2.5" stroke-linecap="round"/>`,
  pattern: (c1, c2) =>
    `<rect x="12" y="8" width="36" height="46" rx="2" fill="${W}"/><path d="M20 18h20l4 10-6 4v14H22V32l-6-4z" fill="none" stroke="${c1}" stroke-width="2" stroke-dasharray="4 3"/><circle cx="30" cy="30" r="3" fill="${c2}"/>`,
  book: (c1, c2) =>
    `<rect x="14" y="8" width="32" height="46" rx="2" fill="${c1}"/><rect x="14" y="8" width="6" height="46" fill="${c2}"/><rect x="26" y="18" width="14" height="4" rx="2" fill="${W}"/><path d="M46 50H20v4h26z" fill="${W}"/>`,
  milkBottle: (c1, c2) =>
    `<rect x="22" y="6" width="16" height="6" rx="2" fill="${c2}"/><path d="M23 12h14v8l6 8v26H17V28l6-8z" fill="${W}" stroke="${c1}" stroke-width="2.5"/><rect x="17" y="34" width="26" height="12" fill="${c1}"/>`,
  refillJar: (c1, c2) =>
    `<rect x="14" y="10" width="32" height="8" rx="2" fill="${c2}"/><rect x="12" y="18" width="36" height="36" rx="6" fill="${c1}"/><path d="M24 36a6 6 0 1 0 6-6" fill="none" stroke="${W}" stroke-width="2.5"/><path d="m28 26 3 4-4 3" fill="none" stroke="${W}" stroke-width="2.5" stroke-linecap="round"/>`,
  chocolate: (c1, c2) =>
    `<rect x="12" y="8" width="36" height="46" rx="3" fill="${c1}"/><path d="M24 8v30M36 8v30M12 18h36M12 28h36" stroke="${c2}" stroke-width="2"/><path d="M12 38h36v16H12z" fill="${c2}"/>`,
  tote: (c1, c2) =>
    `<path d="M22 24v-8a8 8 0 0 1 16 0v8" fill="none" stroke="${c1}" stroke-width="3.5"/><rect x="10" y="22" width="40" height="34" rx="3" fill="${c1}"/><circle cx="30" cy="38" r="7" fill="${c2}"/>`,
  toolbox: (c1, c2) =>
    `<path d="M22 22v-6h16v6" fill="none" stroke="${c1}" stroke-width="3.5"/><rect x="8" y="22" width="44" height="30" rx="3" fill="${c1}"/><rect x="8" y="32" width="44" height="4" fill="${c2}"/><rect x="26" y="30" width="8" height="8" rx="1" fill="${W}"/>`,
  sock: (c1, c2) =>
    `<path d="M20 6h18v28l8 8a8 8 0 0 1-12 12L22 42q-2-2-2-6z" fill="${c1}"/><rect x="20" y="6" width="18" height="8" fill="${c2}"/><path d="M36 46l6 6a8 8 0 0 0 4-10z" fill="${c2}"/>`,
  notebook: (c1, c2) =>
    `<rect x="12" y="8" width="36" height="46" rx="3" fill="${c1}"/><rect x="40" y="8" width="4" height="46" fill="${c2}"/><rect x="18" y="18" width="16" height="4" rx="2" fill="${W}"/>`,
  sportBottle: (c1, c2) =>
    `<rect x="24" y="4" width="12" height="6" rx="2" fill="${c2}"/><rect x="20" y="10" width="20" height="8" rx="2" fill="${c2}"/><rect x="18" y="18" width="24" height="38" rx="6" fill="${c1}"/><path d="M18 30h24M18 42h24" stroke="${W}" stroke-width="2"/>`,
  supplement: (c1, c2) =>
    `<rect x="18" y="8" width="24" height="10" rx="2" fill="${c2}"/><rect x="16" y="18" width="28" height="36" rx="5" fill="${c1}"/><rect x="22" y="30" width="16" height="8" rx="4" fill="${W}"/><rect x="30" y="30" width="8" height="8" rx="4" fill="${c2}"/>`,
  beerBottle: (c1, c2) =>
    `<rect x="25" y="4" width="10" height="4" rx="1" fill="${c2}"/><path d="M26 8h8v12q8 4 8 14v22H18V34q0-10 8-14z" fill="${c1}"/><rect x="18" y="36" width="24" height="12" fill="${c2}"/>`,
  cheese: (c1, c2) =>
    `<path d="M6 44 50 18v26z" fill="${c1}"/><path d="M6 44h44v10H6z" fill="${c2}"/><circle cx="34" cy="34" r="3.5" fill="${W}"/><circle cx="44" cy="28" r="2.5" fill="${W}"/><circle cx="42" cy="40" r="2" fill="${W}"/>`,
};

const IDEAS = [
  ['joint-giveaway', 'amber', 'coffeeBag', 'mug'],
  ['newsletter-swap', 'sky', 'pumpBottle', 'teacup'],
  ['discount-code-swap', 'emerald', 'mealBox', 'pan'],
  ['content-swap', 'amber', 'bread', 'jar'],
  ['guest-blog-post', 'sky', 'blocks', 'blanket'],
  ['social-takeover', 'rose', 'shirt', 'jar'],
  ['product-bundle', 'rose', 'hotSauce', 'chipsBag'],
  ['gift-with-purchase', 'amber', 'pawBag', 'bone'],
  ['product-sampling', 'emerald', 'spray', 'sachet'],
  ['subscription-box-insert', 'amber', 'giftBox', 'spiceJar'],
  ['referral-swap', 'sky', 'shirt', 'blanket'],
  ['loyalty-swap', 'rose', 'mug', 'vase'],
  ['affiliate-partnership', 'emerald', 'paintTin', 'pillow'],
  ['seasonal-gift-guide', 'rose', 'candle', 'jar'],
  ['shared-photoshoot', 'sky', 'shirt', 'vase'],
  ['ugc-challenge', 'emerald', 'seedPacket', 'plantPot'],
  ['live-stream', 'rose', 'supplement', 'moon'],
  ['workshop', 'amber', 'yarn', 'pattern'],
  ['charity-tie-in', 'rose', 'book', 'shirt'],
  ['joint-press-pitch', 'emerald', 'refillJar', 'milkBottle'],
  ['corporate-gifting', 'amber', 'chocolate', 'candle'],
  ['retail-shelf-share', 'sky', 'tote', 'toolbox'],
  ['pop-up-shop', 'rose', 'sock', 'notebook'],
  ['joint-event', 'emerald', 'sock', 'sportBottle'],
  ['limited-edition', 'amber', 'candle', 'vase'],
  ['co-branded-product', 'sky', 'beerBottle', 'cheese'],
];

const svg = (w, h, body) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${body.replace(/\n\s*/g, '')}</svg>\n`;

function ideaImage(slug, accent) {
  const c = ACCENTS[accent];
  return svg(
    320,
    200,
    `<rect width="320" height="200" rx="16" fill="${c.bg}"/>
    <circle cx="132" cy="104" r="70" fill="${IL}" opacity=".55"/>
    <circle cx="188" cy="104" r="70" fill="${c.light}" opacity=".6"/>
    <circle cx="40" cy="40" r="6" fill="${c.light}"/><circle cx="284" cy="164" r="8" fill="${IL}"/><circle cx="286" cy="34" r="4" fill="${P2}" opacity=".5"/>
    <g transform="translate(97.5 41.5) scale(1.25)">${ICONS[slug](c)}</g>`,
  );
}

function exampleImage(accent, left, right) {
  const c = ACCENTS[accent];
  return svg(
    320,
    200,
    `<rect width="320" height="200" rx="16" fill="${c.bg}"/>
    <circle cx="120" cy="100" r="66" fill="${IL}"/>
    <circle cx="200" cy="100" r="66" fill="${c.light}"/>
    <path d="M160 46.5a66 66 0 0 1 0 107 66 66 0 0 1 0-107z" fill="${W}" opacity=".6"/>
    <g transform="translate(72 58) scale(1.3)">${GLYPHS[left](P, c.a)}</g>
    <g transform="translate(170 58) scale(1.3)">${GLYPHS[right](c.a, P)}</g>`,
  );
}

/* ------------------------------------------------------------------------ video posters */
const VIDEO_GLYPHS = {
  'getting-started': (a) =>
    `<path d="M20 44 50 18l30 26v36H20z" fill="${P}"/><rect x="42" y="56" width="16" height="24" rx="2" fill="${a}"/>`,
  'brand-profile': (a) =>
    `<rect x="14" y="16" width="72" height="68" rx="8" fill="${W}" stroke="${IL}" stroke-width="2"/><circle cx="50" cy="40" r="12" fill="${a}"/><rect x="28" y="58" width="44" height="6" rx="3" fill="${P}"/><rect x="34" y="70" width="32" height="5" rx="2.5" fill="${IL}"/>`,
  matches: (a) => `<circle cx="38" cy="50" r="24" fill="${P}" opacity=".9"/><circle cx="62" cy="50" r="24" fill="${a}" opacity=".9"/>`,
  'sending-requests': (a) =>
    `<path d="M10 48 88 16 70 84 50 60z" fill="${P}"/><path d="M50 60 88 16 40 56l4 24z" fill="${a}"/>`,
  'answering-requests': (a) =>
    `<rect x="12" y="30" width="76" height="48" rx="6" fill="${P}"/><path d="M12 34l38 24 38-24" fill="none" stroke="${W}" stroke-width="3"/><circle cx="80" cy="28" r="14" fill="${a}"/><path d="m73 28 5 5 9-9" fill="none" stroke="${W}" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"/>`,
  connections: (a) =>
    `<g transform="rotate(-35 50 50)"><rect x="12" y="38" width="44" height="24" rx="12" fill="none" stroke="${P}" stroke-width="9"/><rect x="44" y="38" width="44" height="24" rx="12" fill="none" stroke="${a}" stroke-width="9"/></g>`,
  'pitch-area': (a) =>
    `<path d="M16 40h14l40-20v60L30 60H16z" fill="${P}"/><rect x="22" y="60" width="10" height="20" rx="2" fill="${P2}"/><path d="M80 36q8 14 0 28" fill="none" stroke="${a}" stroke-width="4" stroke-linecap="round"/>`,
  'collab-ideas': (a) =>
    `<path d="M50 12a26 26 0 0 0-15 47v9h30v-9a26 26 0 0 0-15-47z" fill="${a}"/><rect x="37" y="72" width="26" height="6" rx="3" fill="${P}"/><rect x="41" y="82" width="18" height="6" rx="3" fill="${P}"/>`,
  'credits-subscriptions': (a) =>
    `<circle cx="40" cy="56" r="24" fill="${P}"/><circle cx="40" cy="56" r="15" fill="none" stroke="${IL}" stroke-width="3"/><circle cx="64" cy="40" r="24" fill="${a}"/><circle cx="64" cy="40" r="15" fill="none" stroke="${W}" stroke-width="3"/>`,
  notifications: (a) =>
    `<path d="M50 14a22 22 0 0 0-22 22v18l-8 12h60l-8-12V36a22 22 0 0 0-22-22z" fill="${P}"/><circle cx="50" cy="74" r="7" fill="${P}"/><circle cx="72" cy="24" r="9" fill="${a}"/>`,
};

const VIDEOS = [
  ['getting-started', 'amber'],
  ['brand-profile', 'sky'],
  ['matches', 'rose'],
  ['sending-requests', 'amber'],
  ['answering-requests', 'emerald'],
  ['connections', 'sky'],
  ['pitch-area', 'rose'],
  ['collab-ideas', 'amber'],
  ['credits-subscriptions', 'emerald'],
  ['notifications', 'sky'],
];

function poster(slug, accent) {
  const c = ACCENTS[accent];
  return svg(
    640,
    360,
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${P}"/><stop offset="1" stop-color="${INK}"/></linearGradient></defs>
    <rect width="640" height="360" fill="url(#g)"/>
    <circle cx="500" cy="180" r="150" fill="${P2}" opacity=".35"/><circle cx="580" cy="180" r="150" fill="${c.a}" opacity=".18"/>
    <circle cx="60" cy="300" r="90" fill="${P2}" opacity=".25"/>
    <rect x="90" y="80" width="200" height="200" rx="28" fill="${c.bg}"/>
    <g transform="translate(110 100) scale(1.6)">${VIDEO_GLYPHS[slug](c.a)}</g>
    <circle cx="440" cy="180" r="46" fill="${W}"/><path d="M426 156v48l40-24z" fill="${P}"/>`,
  );
}

function write(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

for (const [slug, accent, left, right] of IDEAS) {
  write(join(PUBLIC, 'collab', `${slug}.svg`), ideaImage(slug, accent));
  write(join(PUBLIC, 'collab', 'examples', `${slug}.svg`), exampleImage(accent, left, right));
}
for (const [slug, accent] of VIDEOS) write(join(PUBLIC, 'videos', `${slug}.svg`), poster(slug, accent));
console.log(`${IDEAS.length * 2} collab illustrations and ${VIDEOS.length} video posters written to ${PUBLIC}`);
