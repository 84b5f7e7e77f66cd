// `npm run sign-in-link`: prints the link that signs a browser in to the studio of this data folder
// (STUDIO_DATA_DIR, STUDIO_TOKEN, HOST, PORT and STUDIO_PUBLIC_URL as the studio reads them), for when
// the one printed at start has scrolled away. It makes the token file if the studio has not yet.
import { signInLink } from "@/lib/server/access/access-token";
import { studioBaseUrl } from "@/lib/server/access/announce";

console.log(signInLink(studioBaseUrl()));
