/** The API's version, as clients see it: the OpenAPI document's `info.version` and the assistant server's version. */
export const API_VERSION = '1.0.0';
