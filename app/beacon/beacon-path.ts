/** Where readers' browsers send their beacons: the site's own origin, so no other host is ever asked. */
export const BEACON_PATH = "/__beacon";
/**
 * The query of the image a page without JavaScript loads when its donation panel is shown: named in
 * app/tailwind.css, whose url() cannot import it.
 */
export const NO_SCRIPT_PANEL_QUERY = "a=donate_panel";
