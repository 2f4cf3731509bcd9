/** The app's service worker (web/public/sw.js, served at /app/sw.js with the app's headers). */
const SCRIPT = "/app/sw.js";

interface TrustedTypePolicyFactory {
  createPolicy(
    name: string,
    rules: { createScriptURL: (url: string) => string },
  ): {
    createScriptURL(url: string): unknown;
  };
}

/**
 * Registers the service worker that lets the app load without the network (scope /app/). The page's CSP enforces
 * Trusted Types, and a service worker's URL is a script URL: the one policy the CSP allows makes exactly this URL
 * and refuses any other. A browser without service workers runs the app online only.
 */
export function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  const trustedTypes = (window as unknown as { trustedTypes?: TrustedTypePolicyFactory }).trustedTypes;
  const policy = trustedTypes?.createPolicy("service-worker", {
    createScriptURL: (url) => {
      if (url !== SCRIPT) throw new TypeError(`${url} is not the app's service worker`);
      return url;
    },
  });
  const url = (policy?.createScriptURL(SCRIPT) ?? SCRIPT) as string;
  navigator.serviceWorker.register(url, { scope: "/app/" }).catch(() => undefined);
}
