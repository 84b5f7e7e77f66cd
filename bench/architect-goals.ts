// The Architect's quality bench (bench/architect.bench.ts): goals of varying difficulty, each with the parts its draft
// must hold. `tools`: each must be a step of the draft (any of `oneOf` will do); `trigger`: how runs start;
// `changes`: whether it changes something (a step that is not read-only, so in mode default a person approves it).

export interface BenchGoal {
  goal: string;
  requires: {
    trigger: "input" | "schedule";
    tools: { oneOf: string[] }[];
    changes: boolean;
  };
}

const tool = (...oneOf: string[]) => ({ oneOf });

export const ARCHITECT_GOALS: BenchGoal[] = [
  { goal: "List what is in the reports folder.", requires: { trigger: "input", tools: [tool("list_dir")], changes: false } },
  { goal: "Read notes.md and give me its text.", requires: { trigger: "input", tools: [tool("read_file")], changes: false } },
  { goal: "Write 'hello' into hello.txt.", requires: { trigger: "input", tools: [tool("write_file")], changes: true } },
  { goal: "Find every TODO in the src folder.", requires: { trigger: "input", tools: [tool("search")], changes: false } },
  { goal: "Fetch https://example.com/status and return the body.", requires: { trigger: "input", tools: [tool("http")], changes: false } },
  { goal: "Run `npm test` in the project folder and tell me if it passed.", requires: { trigger: "input", tools: [tool("run_command")], changes: true } },
  { goal: "List the tables of the shop database.", requires: { trigger: "input", tools: [tool("sql")], changes: false } },
  { goal: "Every morning at 7, list the tables of the shop database.", requires: { trigger: "schedule", tools: [tool("sql")], changes: false } },
  { goal: "Every hour, fetch https://example.com/health.", requires: { trigger: "schedule", tools: [tool("http")], changes: false } },
  { goal: "Ask for a file name, then read that file.", requires: { trigger: "input", tools: [tool("read_file")], changes: false } },
  { goal: "Ask for a city and search the web for its weather.", requires: { trigger: "input", tools: [tool("web_search", "http")], changes: false } },
  { goal: "Read data.csv and write the rows where status is failed into failed.csv.", requires: { trigger: "input", tools: [tool("read_file", "data"), tool("write_file", "data")], changes: true } },
  { goal: "Read yesterday's orders from the shop database and write a summary to reports/orders.md.", requires: { trigger: "input", tools: [tool("sql"), tool("write_file")], changes: true } },
  {
    goal: "Every morning, read yesterday's orders from the shop database, write a summary to reports/, and ask me before emailing it.",
    requires: { trigger: "schedule", tools: [tool("sql"), tool("write_file")], changes: true },
  },
  { goal: "Every night at 2, run the backup script backup.sh.", requires: { trigger: "schedule", tools: [tool("run_command")], changes: true } },
  { goal: "Replace 'colour' with 'color' in README.md.", requires: { trigger: "input", tools: [tool("apply_edit", "write_file")], changes: true } },
  { goal: "Take a page address, open it in a browser and return its text.", requires: { trigger: "input", tools: [tool("browse", "http")], changes: false } },
  { goal: "Count the lines of every log file in logs/ with a command.", requires: { trigger: "input", tools: [tool("run_command")], changes: true } },
  { goal: "Query the users table for accounts created today and save them as JSON in exports/users.json.", requires: { trigger: "input", tools: [tool("sql"), tool("write_file", "data")], changes: true } },
  { goal: "Every 15 minutes, check https://example.com/api/queue and write the answer to queue.log.", requires: { trigger: "schedule", tools: [tool("http"), tool("write_file")], changes: true } },
  { goal: "Read config.json, add a field version set to 2 with code, and write it back.", requires: { trigger: "input", tools: [tool("read_file"), tool("write_file", "apply_edit")], changes: true } },
  { goal: "List the folder, then read the newest file in it.", requires: { trigger: "input", tools: [tool("list_dir"), tool("read_file")], changes: false } },
  { goal: "Search src/ for 'FIXME' and write what was found to fixme.md.", requires: { trigger: "input", tools: [tool("search"), tool("write_file")], changes: true } },
  { goal: "Ask for an SQL query and run it against the analytics database.", requires: { trigger: "input", tools: [tool("sql")], changes: false } },
  { goal: "Every Monday at 9, run `git pull` in the repository.", requires: { trigger: "schedule", tools: [tool("run_command")], changes: true } },
  { goal: "Fetch the exchange rates from https://example.com/rates.json and store them in rates.json.", requires: { trigger: "input", tools: [tool("http"), tool("write_file")], changes: true } },
  { goal: "Take a folder name and list it recursively.", requires: { trigger: "input", tools: [tool("list_dir")], changes: false } },
  { goal: "Read the schema of the orders table.", requires: { trigger: "input", tools: [tool("sql")], changes: false } },
  { goal: "Run the linter with `npm run lint`; if it fails, write its output to lint.txt.", requires: { trigger: "input", tools: [tool("run_command"), tool("write_file")], changes: true } },
  {
    goal: "Every day at 18:00 Berlin time, read today's signups from the database, write them to signups/today.csv, and fetch https://example.com/notify.",
    requires: { trigger: "schedule", tools: [tool("sql"), tool("write_file", "data"), tool("http")], changes: true },
  },
  { goal: "Search the web for 'neurosurfer' and save the first results to search.md.", requires: { trigger: "input", tools: [tool("web_search"), tool("write_file")], changes: true } },
];
