/** The API's version, as the OpenAPI document and the health check state it. */
export const API_VERSION = "1.0.0";
