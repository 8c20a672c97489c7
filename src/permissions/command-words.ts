/** A redirection of one simple command: the operator as written (`>`, `2>>`, `&>`, `<`, …) and its target word. */
export interface Redirect {
  op: string;
  /** The target with quotes removed; for `>&N` / `<&N` / `>&-` the fd or `-`. */
  target: string;
  /** True for output (`>`, `>>`, `>|`, `&>`, `&>>`, `N>`), false for input (`<`, `N<`). */
  output: boolean;
  /** True when the target is a file descriptor (`2>&1`, `>&2`, `<&0`, `>&-`), not a file. */
  fd: boolean;
}

/** One simple command, tokenised: its words (quotes removed) and its redirections. */
export interface CommandWords {
  words: string[];
  /** True per word when it holds an unquoted `$` (a variable expansion that cannot be checked statically). */
  dynamic: boolean[];
  redirects: Redirect[];
  /** The command uses a heredoc or here-string (`<<`, `<<<`): its body is data for the command. */
  heredoc: boolean;
}

/**
 * Tokenises ONE simple command (already split at `;`, `&&`, `|`, … by `splitCommand`) the way a POSIX shell
 * reads words: whitespace separates words, `'…'` is literal, `"…"` and `\x` escape, and redirection operators
 * (`>`, `>>`, `>|`, `<`, `&>`, `&>>`, `N>`, `N>&M`, `>&N`) are taken out with their target word. A heredoc
 * (`<<WORD`, `<<-WORD`) or here-string (`<<<`) marks `heredoc` and its delimiter or string is not a word.
 * Lenient (an unclosed quote runs to the end); pure; never throws.
 */
export function commandWords(command: string): CommandWords {
  const words: string[] = [];
  const dynamic: boolean[] = [];
  const redirects: Redirect[] = [];
  let heredoc = false;
  let word = "";
  let inWord = false;
  let wordDynamic = false;
  /** A redirection waiting for its target word. */
  let pending: { op: string; output: boolean; dup: boolean } | undefined;
  /** The next word is a heredoc delimiter or here-string: dropped. */
  let skipNext = false;

  const endWord = () => {
    if (!inWord) return;
    if (pending !== undefined) {
      const fd = pending.dup && /^(?:\d+|-)$/.test(word);
      redirects.push({ op: pending.op, target: word, output: pending.output, fd });
      pending = undefined;
    } else if (skipNext) {
      skipNext = false;
    } else {
      words.push(word);
      dynamic.push(wordDynamic);
    }
    word = "";
    inWord = false;
    wordDynamic = false;
  };

  for (let i = 0; i < command.length; i++) {
    const ch = command.charAt(i);
    if (ch === "'") {
      const end = command.indexOf("'", i + 1);
      const stop = end === -1 ? command.length : end;
      word += command.slice(i + 1, stop);
      inWord = true;
      i = stop;
      continue;
    }
    if (ch === '"') {
      inWord = true;
      let j = i + 1;
      for (; j < command.length && command.charAt(j) !== '"'; j++) {
        const c = command.charAt(j);
        if (c === "\\" && j + 1 < command.length && '$`"\\\n'.includes(command.charAt(j + 1))) {
          word += command.charAt(j + 1);
          j++;
        } else {
          if (c === "$" || c === "`") wordDynamic = true;
          word += c;
        }
      }
      i = j;
      continue;
    }
    if (ch === "\\") {
      if (i + 1 < command.length) {
        if (command.charAt(i + 1) !== "\n") word += command.charAt(i + 1);
        inWord = true;
        i++;
      }
      continue;
    }
    if (/\s/.test(ch)) {
      endWord();
      continue;
    }
    const next = command.charAt(i + 1);
    if (ch === "<" && next === "<") {
      endWord();
      heredoc = true;
      skipNext = true;
      i += command.charAt(i + 2) === "<" || command.charAt(i + 2) === "-" ? 2 : 1;
      continue;
    }
    if (ch === ">" || ch === "<" || (ch === "&" && next === ">" && !inWord)) {
      // `2>`: a word of digits just before the operator is its fd, not a word of the command.
      let op = ch;
      if (inWord && /^\d+$/.test(word) && !wordDynamic) {
        op = word + ch;
        word = "";
        inWord = false;
      } else {
        endWord();
      }
      let j = i + 1;
      if (ch === "&") {
        op += ">";
        j++;
        if (command.charAt(j) === ">") {
          op += ">";
          j++;
        }
      } else if (ch === ">" && (command.charAt(j) === ">" || command.charAt(j) === "|")) {
        op += command.charAt(j);
        j++;
      }
      let dup = false;
      if (ch !== "&" && command.charAt(j) === "&") {
        op += "&";
        dup = true;
        j++;
      }
      pending = { op, output: ch !== "<", dup };
      i = j - 1;
      continue;
    }
    if (ch === "$") wordDynamic = true;
    if (ch === "`") wordDynamic = true;
    word += ch;
    inWord = true;
  }
  endWord();
  return { words, dynamic, redirects, heredoc };
}
