import { describe, expect, it } from "vitest";
import { secretLookingValues, storedSecretsIn } from "./secret-looking";

describe("secretLookingValues", () => {
  it("finds credential shapes anywhere and credential-named fields, with their paths", () => {
    const found = secretLookingValues({
      content: "ok",
      data: { rows: [{ note: "key sk-abcdefghijklmnopqrstuvwxyz123456" }], headers: { authorization: "Basic dXNlcjpwYXNz" }, url: "postgres://me:hunter22@db/x" },
    });
    expect(found.map((each) => each.path.join("."))).toEqual(["data.rows.0.note", "data.headers.authorization", "data.url"]);
  });

  it("lets masked values, secret references and ordinary text through", () => {
    expect(secretLookingValues({ content: "Bearer ••••••", data: { password: "••••••", token: "${API_TOKEN}", city: "Lahore", tokens: 12 } })).toEqual([]);
  });
});

describe("storedSecretsIn", () => {
  it("names the stored secret a value holds, never the value", () => {
    const found = storedSecretsIn({ data: { text: "the key is s3cr3t-value here" } }, new Map([["DB_PASSWORD", "s3cr3t-value"]]));
    expect(found).toEqual([{ path: ["data", "text"], reason: "holds the value of the stored secret DB_PASSWORD" }]);
  });
});
