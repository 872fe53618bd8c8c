/** Where readers' browsers send their beacons: the site's own origin, so no other host is ever asked. */
export const BEACON_PATH = "/__beacon";
