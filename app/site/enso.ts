/** The ensō, the brushed circle of Zen calligraphy: a 64 × 64 box, stroked 6 wide with round caps. */
export const ENSO_PATH =
  "M46.5 12.8C40.6 8.4 31.9 7.2 24.4 10.3 14.2 14.5 8.3 25.6 10.6 36.4c2.4 11.2 13 19.3 24.5 18.6 11.7-.7 20.6-10.4 20.5-22-.1-6.5-2.8-11.7-6.6-15.4";
