/** The CA directories offered by name; any other ACME directory URL may be given as well. */
export const ACME_DIRECTORIES = [
  {
    id: 'letsencrypt',
    name: "Let's Encrypt",
    url: 'https://acme-v02.api.letsencrypt.org/directory',
    staging: false,
  },
  {
    id: 'letsencrypt-staging',
    name: "Let's Encrypt (staging)",
    url: 'https://acme-staging-v02.api.letsencrypt.org/directory',
    staging: true,
  },
] as const;

export const DEFAULT_ACME_DIRECTORY = ACME_DIRECTORIES[0].url;
