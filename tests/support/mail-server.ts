import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A message the test mail server accepted: to whom, and the parsed mail. */
export interface ReceivedMail {
  to: string;
  mail: ParsedMail;
}

export interface TestMailServer {
  port: number;
  /** Every message accepted so far, in the order they came. */
  received: ReceivedMail[];
  /** Addresses whose next message is refused once (451, "try again later"): a server that is busy at first. */
  refuseOnce: Set<string>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on loopback (the `smtp-server` package) that keeps what
 * it accepts, for the tests of approval e-mail: the API tests and the browser
 * tests, whose second person follows the link a mail carries. With `login`
 * it asks for that user and password; without, anyone may send.
 */
export async function startMailServer(options: { port?: number; login?: { user: string; password: string } } = {}): Promise<TestMailServer> {
  const received: ReceivedMail[] = [];
  const refuseOnce = new Set<string>();
  const login = options.login;
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, callback) {
      if (login && auth.username === login.user && auth.password === login.password) callback(null, { user: auth.username });
      else callback(new Error("wrong user or password"));
    },
    onData(stream, session, callback) {
      const to = session.envelope.rcptTo.map((each) => each.address).join(",");
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (refuseOnce.delete(to)) {
          callback(Object.assign(new Error("try again later"), { responseCode: 451 }));
          return;
        }
        simpleParser(Buffer.concat(chunks))
          .then((mail) => {
            received.push({ to, mail });
            callback();
          })
          .catch(callback);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const port = (server.server.address() as AddressInfo).port;
  return { port, received, refuseOnce, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
