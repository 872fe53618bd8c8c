/** myanmar-tools 1.1.3 (Google, Apache-2.0) ships JavaScript without types: the two classes the site uses. */
declare module "myanmar-tools" {
  export class ZawgyiDetector {
    /** The probability that the text is Zawgyi rather than Unicode, or -Infinity when it has no Myanmar code point. */
    getZawgyiProbability(text: string): number;
  }
  export class ZawgyiConverter {
    zawgyiToUnicode(text: string): string;
    unicodeToZawgyi(text: string): string;
  }
  const myanmarTools: { ZawgyiDetector: typeof ZawgyiDetector; ZawgyiConverter: typeof ZawgyiConverter };
  export default myanmarTools;
}
