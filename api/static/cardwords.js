// Cards in words, with no page around them: a card code of the wire format (docs/wire-format.md)
// read into its rank and suit, and named the way players say it ("the seven of diamonds").
// The page never shows a code to a person: everything it writes about a card comes from here.

const SUIT_WORDS = {S: "spades", H: "hearts", D: "diamonds", C: "clubs"};
const RANK_WORDS = {A: "ace", K: "king", Q: "queen", J: "jack", "10": "ten", "9": "nine", "8": "eight",
                    "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three", "2": "two"};
const NATURAL = /^(10|[2-9AKQJT0])([SHDC])$/;
const JOKER = /^JK(?:\(=(10|[2-9AKQJT0])([SHDC])?\))?$/;

function normalRank(rank) { return rank === "T" || rank === "0" ? "10" : rank; }

/** {joker, rank, suit} for a code, or null; a joker's rank and suit are its reading, when it has one. */
export function parse(code) {
  const text = String(code).toUpperCase();
  let m = NATURAL.exec(text);
  if (m) return {joker: false, rank: normalRank(m[1]), suit: m[2]};
  m = JOKER.exec(text);
  if (m) return {joker: true, rank: m[1] ? normalRank(m[1]) : null, suit: m[2] || null};
  return null;
}

/** True when the suit is drawn red (hearts, diamonds). */
export function isRed(suit) { return suit === "H" || suit === "D"; }

function naturalName(rank, suit) { return suit ? `${RANK_WORDS[rank]} of ${SUIT_WORDS[suit]}` : RANK_WORDS[rank]; }

/** The card in words: "the nine of hearts", "a joker", "a joker standing for the eight of hearts". */
export function name(code) {
  const c = parse(code);
  if (!c) return "a card the referee does not know";
  if (!c.joker) return `the ${naturalName(c.rank, c.suit)}`;
  if (!c.rank) return "a joker";
  return c.suit ? `a joker standing for the ${naturalName(c.rank, c.suit)}`
                : `a joker standing for ${/^[ae]/.test(RANK_WORDS[c.rank]) ? "an" : "a"} ${naturalName(c.rank, null)}`;
}

/** A list in running text: "a, b and c". */
export function listWords(words) {
  if (words.length <= 1) return words.join("");
  return words.slice(0, -1).join(", ") + " and " + words[words.length - 1];
}

/** The cards in words: "the eight of clubs and the nine of clubs". */
export function names(codes) { return listWords(codes.map(name)); }

/** Every code in a text replaced by the card's name (for words the referee wrote with codes). */
export function namesInText(text) {
  return String(text).replace(/\bJK(?:\(=(?:10|[2-9AKQJ])[SHDC]?\)|\b)|\b(?:10|[2-9AKQJ])[SHDC]\b/g, code => {
    const c = parse(code);
    return c ? name(code) : code;
  });
}

/** "1 card", "2 cards". */
export function plural(n, one, many) { return `${n} ${n === 1 ? one : (many || one + "s")}`; }
