/** §9: the deprecated fields (per_night, the *_nightly twins) were announced with 1.0.0 and go after 2027-01-06. */
export const DEPRECATION = {
  /** When they were deprecated: the 1.0.0 release. */
  since: new Date(Date.UTC(2026, 10, 23)),
  /** "Removal after 2027-01-06": gone from the start of the next day. */
  sunset: new Date(Date.UTC(2027, 0, 7)),
} as const;

/** RFC 9745 Deprecation (an @-date), RFC 8594 Sunset (an HTTP-date), and a Link to the changelog that explains them. */
export function deprecationHeaders(baseUrl: string): Record<string, string> {
  return {
    deprecation: `@${Math.floor(DEPRECATION.since.getTime() / 1000)}`,
    sunset: DEPRECATION.sunset.toUTCString(),
    link: `<${baseUrl}/developers/changelog>; rel="deprecation"; type="text/html"`,
  };
}
