import { describe, expect, it } from "vitest";
import { DATASET_MAX_PROBLEMS, DATASET_MAX_ROWS } from "@/lib/contracts/evaluation-dataset";
import type { InputField } from "@/lib/workflow/definition";
import { parseDatasetFile } from "./dataset-file";

const FIELDS: InputField[] = [
  { name: "question", type: "string", required: true },
  { name: "limit", type: "number", required: false, default: 3 },
  { name: "strict", type: "boolean", required: false },
];

const issuesOf = (result: ReturnType<typeof parseDatasetFile>) => ("issues" in result ? result.issues.map((issue) => [issue.path, issue.message]) : []);

describe("a dataset read from CSV", () => {
  it("takes a header of inputs in any order and an expected column, converting values as a run's inputs are", () => {
    const result = parseDatasetFile('limit,expected,question\n5,"Paris",Capital of France?\n,4,"What is 2+2, exactly?"\n', "csv", FIELDS);
    expect(result).toEqual({
      rows: [
        { inputs: { question: "Capital of France?", limit: 5 }, expected: "Paris" },
        { inputs: { question: "What is 2+2, exactly?", limit: 3 }, expected: "4" },
      ],
    });
  });

  it("reads semicolon files, a byte-order mark, CRLF line ends, and rows without an expected output", () => {
    const result = parseDatasetFile("\uFEFFquestion;strict\r\nHi;true\r\nBye;false\r\n", "csv", FIELDS);
    expect(result).toEqual({ rows: [{ inputs: { question: "Hi", limit: 3, strict: true } }, { inputs: { question: "Bye", limit: 3, strict: false } }] });
  });

  it("names every bad row by its line and field, and makes nothing of a file with one", () => {
    const text = ["question,limit,strict", "ok,1,true", ",2,false", "fine,many,true", "short,1", "yes,1,maybe"].join("\n");
    expect(issuesOf(parseDatasetFile(text, "csv", FIELDS))).toEqual([
      ["rows[3].question", "line 3: question is required"],
      ["rows[4].limit", "line 4: limit: expected a number, got \"many\""],
      ["rows[5]", "line 5: has 2 values; the header has 3 columns"],
      ["rows[6].strict", "line 6: strict: expected a boolean, got \"maybe\""],
    ]);
  });

  it("refuses a column the workflow has no input for, saying which inputs it has", () => {
    expect(issuesOf(parseDatasetFile("question,colour\nHi,red\n", "csv", FIELDS))).toEqual([
      ["rows[1].colour", "line 1: “colour” is not an input of this workflow (its inputs are question, limit, strict)"],
    ]);
  });

  it("says where a quote is never closed", () => {
    expect(issuesOf(parseDatasetFile('question\n"open\nstill open\n', "csv", FIELDS))).toEqual([["rows[2]", expect.stringContaining("never closed")]]);
  });

  it("refuses an empty file and one over the row limit", () => {
    expect(issuesOf(parseDatasetFile("question\n", "csv", FIELDS))).toEqual([["rows[1]", "line 1: the file has no rows: nothing to evaluate"]]);
    const many = ["question", ...Array.from({ length: DATASET_MAX_ROWS + 1 }, (_, index) => `q${index}`)].join("\n");
    expect(issuesOf(parseDatasetFile(many, "csv", FIELDS))[0]![1]).toContain(`a dataset holds at most ${DATASET_MAX_ROWS.toLocaleString("en")}`);
  });

  it("names the first bad rows of a file that is wrong throughout, then says there are more", () => {
    const text = ["question,limit", ...Array.from({ length: 200 }, () => "q,x")].join("\n");
    const issues = issuesOf(parseDatasetFile(text, "csv", FIELDS));
    expect(issues).toHaveLength(DATASET_MAX_PROBLEMS + 1);
    expect(issues.at(-1)![1]).toMatch(/^and more after line \d+: fix these first$/);
  });
});

describe("a dataset read from JSON Lines", () => {
  it("takes inputs and any JSON as expected, skipping blank lines", () => {
    const text = ['{"inputs":{"question":"Sum?","limit":"2"},"expected":{"total":4,"items":[1,3]}}', "", '{"inputs":{"question":"Plain"}}'].join("\n");
    expect(parseDatasetFile(text, "jsonl", FIELDS)).toEqual({
      rows: [{ inputs: { question: "Sum?", limit: 2 }, expected: { total: 4, items: [1, 3] } }, { inputs: { question: "Plain", limit: 3 } }],
    });
  });

  it("names lines that are not JSON, not a row, or carry inputs the workflow lacks", () => {
    const text = ["{not json", "[1,2]", '{"question":"flat"}', '{"inputs":{"question":"q","colour":"red"}}', '{"inputs":"q"}'].join("\n");
    expect(issuesOf(parseDatasetFile(text, "jsonl", FIELDS))).toEqual([
      ["rows[1]", expect.stringMatching(/^line 1: is not JSON/)],
      ["rows[2]", 'line 2: is not an object: expected {"inputs": {…}, "expected": …}'],
      ["rows[3].question", "line 3: “question” is not a key of a row: a row has inputs and, optionally, expected"],
      ["rows[3].inputs", "line 3: inputs must be an object of the workflow's inputs"],
      ["rows[4].colour", "line 4: “colour” is not an input of this workflow (its inputs are question, limit, strict)"],
      ["rows[5].inputs", "line 5: inputs must be an object of the workflow's inputs"],
    ]);
  });
});
