/**
 * The evaluation's bank-text generator (bench/bank-text/): the same book for the same
 * seed and another for another, each style printing the shapes it claims, truncation at
 * the stated width, ambiguous merchants that really go to more than one category, about a
 * tenth of the test period from new merchants, and splits that never show the held-out
 * style in training. (Plain Node: the generator is bench code.)
 */
import { describe, expect, it } from "vitest";
import { type BankLine, type Book, inStyle, inStyleAtRandom, leaveOneStyleOut, makeBook } from "../../bench/bank-text/book";
import type { Txn } from "../../bench/bank-text/business";
import { STYLE_NAMES, STYLES, type StyleName } from "../../bench/bank-text/styles";

const book = makeBook(11);

/** The style's lines with their transactions beside them. */
function printed(b: Book, style: StyleName): { line: BankLine; txn: Txn }[] {
  return b.lines[style].map((line, i) => ({ line, txn: b.txns[i]! }));
}
const onChecking = (style: StyleName, kinds: string[]) =>
  printed(book, style).filter(({ line }) => kinds.includes(line.kind) && line.accountId === "acc_checking");
/** The card network's fields as words: name (25), city (13), state. */
const networkWords = (t: Txn) => `${t.descriptor.slice(0, 25)} ${t.merchant.place![0].slice(0, 13)} ${t.merchant.place![1]}`.replace(/\s+/g, " ").trim();

describe("the book a seed gives", () => {
  it("is the same for the same seed, and another business for another seed", () => {
    const again = makeBook(11);
    expect(again.lines).toEqual(book.lines);

    const other = makeBook(12);
    const names = (b: Book) => new Set(b.business.merchants.map((m) => m.name));
    const shared = [...names(other)].filter((n) => names(book).has(n)).length;
    expect(shared / names(other).size).toBeLessThan(0.5);
    const same = other.lines["card-purchase"].filter((l, i) => l.description === book.lines["card-purchase"][i]!.description).length;
    expect(same).toBeLessThan(50);
    expect(other.txns.map((t) => t.amountCents)).not.toEqual(book.txns.map((t) => t.amountCents));
  });

  it("prints every transaction in every style, with its truth", () => {
    for (const style of STYLE_NAMES) {
      expect(book.lines[style]).toHaveLength(book.txns.length);
      book.lines[style].forEach((line, i) => {
        const t = book.txns[i]!;
        expect([line.category, line.merchantId, line.amountCents, line.postedOn, line.style]).toEqual([t.category, t.merchant.id, t.amountCents, t.postedOn, style]);
      });
    }
    // Several hundred merchants across the five headers, in both directions.
    expect(book.business.merchants.length).toBeGreaterThan(150);
    expect(new Set(book.lines["checkcard"].map((l) => l.header))).toEqual(new Set(["income", "cogs", "expense", "draw", "transfer"]));
  });
});

describe("each style prints the shape it claims", () => {
  const shapes: Record<StyleName, [kinds: string[], shape: RegExp][]> = {
    "authorized-on": [
      [["card", "online"], /^(PURCHASE|RECURRING PAYMENT) AUTHORIZED ON \d\d\/\d\d .+ S\d{15} CARD \d{4}$/],
      [["wire-in"], /^WT FED#\d{5} .+ \/ORG=.+ SRF# \w{16} TRN#\d{12} RFB# .+$/],
      [["transfer-out"], /^ONLINE TRANSFER TO .+ XXXXXX\d{4} REF #IB\w{5} ON \d\d\/\d\d\/\d\d$/],
      [["p2p-out"], /^ZELLE TO .+ ON \d\d\/\d\d REF # PP0\w{6}$/],
      [["check"], /^CHECK (# )?\d+$/],
    ],
    "card-purchase": [
      [["card", "online"], /^(RECURRING CARD PURCHASE|CARD PURCHASE|CARD PURCHASE WITH PIN) \d\d\/\d\d .+ CARD \d{4}$/],
      [["ach-debit", "ach-credit"], /^ORIG CO NAME:.+ ORIG ID:\d{10} DESC DATE:\d{6} CO ENTRY DESCR:.+SEC:(PPD|CCD|WEB|TEL) +TRACE#:\d{15} EED:\d{6} +IND ID:.+ IND NAME:.+ TRN: \d{10}TC$/],
      [["wire-in"], /^FEDWIRE CREDIT VIA: .+\/\d{9} B\/O: .+ IMAD: \d{8}\w{8}\d{6} TRN: \d{10}FF$/],
      [["transfer-out", "transfer-in"], /^Online Transfer (to|from) (CHK|SAV) \.\.\.\d{4} transaction#: \d{11} \d\d\/\d\d$/],
      [["p2p-out"], /^Zelle payment to [A-Z][a-z]+ .+ JPM99\w{6}$/],
      [["check"], /^CHECK \d+$/],
    ],
    checkcard: [
      [["card", "online"], /^(CHECKCARD \d{4} .+ \d{23}( RECURRING)?|PURCHASE \d{4} .+)$/],
      [["ach-debit", "ach-credit"], /^.+ DES:.+ ID:\S+ INDN:.+ CO ID:\d{10} (PPD|CCD|WEB|TEL)$/],
      [["wire-in"], /^WIRE TYPE:WIRE IN DATE:\d{6} TIME:\d{4} ET TRN:\d{14} SEQ:\d{7}\/\d{6} ORIG:.+ ID:\d{10} SND BK:.+ ID:\d{9} PMT DET:.+$/],
      [["wire-out"], /^WIRE TYPE:WIRE OUT DATE:\d{6} TIME:\d{4} ET TRN:\d{14} SERVICE REF:\d{6} BNF:.+ BNF BK:.+ PMT DET:.+$/],
      [["check"], /^Check \d+$/],
    ],
    "debit-purchase-visa": [
      // The network's fixed columns: 25 for the name, 13 for the city, then the state.
      [["card", "online"], /^(DEBIT PURCHASE -VISA|RECURRING DEBIT PURCHASE) .{25}.{13}[A-Z]{2}$/],
      [["ach-debit"], /^(ELECTRONIC WITHDRAWAL|WEB AUTHORIZED PMT) \S/],
      [["ach-credit"], /^ELECTRONIC DEPOSIT \S/],
      [["p2p-out"], /^ZELLE INSTANT PMT TO [A-Z]+ [A-Z]+$/],
    ],
    "debit-card-masked": [
      // The merchant-first line ends `POS PURCHASE POS123 XXX45`, or part of it at 55 characters.
      [["card", "online"], /^(DEBIT CARD PURCHASE XXXXX\d{4} |RECURRING DEBIT CARD XXXXX\d{4} |.+ POS PURCHASE( POS\d{0,3}( X{0,3}\d{0,2})?)?$)/],
      [["ach-debit", "ach-credit"], /^(CORPORATE ACH |ACH (WEB|DEBIT|CREDIT) )\S/],
      [["transfer-out"], /^ONLINE TRANSFER TO (SAVINGS )?XXXXXX\d{4}$/],
    ],
    "credit-union": [
      [["card", "online"], /^(POS DEBIT-DC \d{4}|Withdrawal POS #\d{12}|DBT CRD \d{4} \d\d\/\d\d\/\d\d|POS Withdrawal) /],
      [["check"], /^(Share Draft #|Draft )\d+$/],
      [["interest"], /^Dividend/],
    ],
    "bare-descriptor": [
      [["ach-debit", "ach-credit"], /^.{16} .{10} {2}(PPD|CCD|WEB|TEL) ID: \d{10}$/],
      [["p2p-out"], /^Zelle money sent to [A-Z][a-z]+ /],
      [["check"], /^Check #\d+$/],
    ],
    "aggregator-named": [
      [["p2p-out"], /^Zelle payment to [A-Z][a-z]+ /],
      [["check"], /^Check \d+$/],
    ],
    "aggregator-bare": [
      // The institution's words glued to the company's name, as the aggregator passes them on.
      [["ach-debit"], /^ACH Electronic Debit[A-Z0-9]/],
      [["ach-credit"], /^ACH Electronic Credit[A-Z0-9]/],
      [["card", "online"], /^(POS Debit - Visa Check Card \d{4} - |Point of Sale Withdrawal |Recurring Debit Purchase Card \d{4} )\S/],
    ],
    "dda-purchase": [
      [["card", "online"], /^(VISA DDA PUR|DBCRD PUR AP) \d{6} .+ \* [A-Z]{2}$/],
      [["ach-debit"], /^(PPD|CCD|WEB|TEL) DEBIT, \S/],
      [["transfer-out"], /^eTransfer Debit, Online Xfer Transfer to (CK|SV) \d{4}$/],
      [["check"], /^CHECK \d+$/],
    ],
    "purchase-at": [
      // The network's fields between commas: name, city (or web address, phone), state.
      [["card", "online"], /^(RECURRING )?DEBIT CARD PURCHASE AT .+, [^,]*, [A-Z]{2} ON \d{6} FROM CARD#: X{12}\d{4}$/],
      [["ach-debit"], /^(WEB INITIATED PAYMENT AT|ACH DEBIT AT) \S/],
      [["transfer-out"], /^5\/3 ONLINE TRANSFER TO (CK|SV): XXXXXX\d{4} REF # \d{9}$/],
    ],
    neobank: [
      // The name alone: no bank's words, no city, none of the ACH lines' semicolons.
      [["card", "online"], /^[A-Z0-9][^;]*$/],
      [["ach-debit", "ach-credit"], /^[^;]+; [^;]+(; \S+)?$/],
      [["transfer-out"], /^Transfer to .+ ••\d{4}$/],
      [["check"], /^Check #\d+$/],
    ],
    "direct-withdrawal": [
      [["ach-debit"], /^Direct Withdrawal, \S/],
      [["ach-credit"], /^Direct Deposit, \S/],
      [["card", "online"], /^(POS|Recurring) Purchase /],
    ],
  };

  for (const style of STYLE_NAMES) {
    it(`${style}`, () => {
      for (const [kinds, shape] of shapes[style]) {
        const lines = onChecking(style, kinds);
        expect(lines.length, `${style} ${kinds.join("/")} lines`).toBeGreaterThan(0);
        const misfits = lines.filter(({ line }) => !shape.test(line.description)).map(({ line }) => line.description);
        expect(misfits.slice(0, 5), `${style} ${kinds.join("/")}`).toEqual([]);
      }
    });
  }

  it("card lines carry the network's name, store numbers that vary, and processors' changing suffixes", () => {
    for (const { line, txn } of onChecking("card-purchase", ["card", "online"])) expect(line.description).toContain(txn.descriptor.slice(0, 25).trimEnd());
    const descriptors = new Map<string, Set<string>>();
    for (const t of book.txns) if (t.merchant.card) descriptors.set(t.merchant.card, (descriptors.get(t.merchant.card) ?? new Set()).add(t.descriptor));
    const varying = (marker: RegExp) => [...descriptors].filter(([card, seen]) => marker.test(card) && seen.size > 1).length;
    expect(varying(/\{S\d+\}/)).toBeGreaterThan(2); // store numbers
    expect(varying(/\{[AD]\d+\}/)).toBeGreaterThan(2); // order codes: AMZN Mktp US*2K4XY9, FACEBK *..., UBER *TRIP ...
    expect([...descriptors.keys()].some((card) => /^(SQ \*|TST\* )/.test(card))).toBe(true);
  });

  it("the fixed-width style glues a full name to its city", () => {
    // The last 40 characters are the columns: name [-40, -15), city [-15, -2), state.
    const glued = onChecking("debit-purchase-visa", ["card", "online"]).filter(({ line }) => {
      const d = line.description;
      return d.charAt(d.length - 16) !== " " && d.charAt(d.length - 15) !== " ";
    });
    expect(glued.length).toBeGreaterThan(0);
    expect(glued.every(({ line, txn }) => line.description.includes(`${txn.descriptor.slice(0, 25)}${txn.merchant.place![0].slice(0, 13)}`))).toBe(true);
  });

  it("checks name nobody: no style prints the payee", () => {
    for (const style of STYLE_NAMES) {
      for (const { line, txn } of printed(book, style).filter(({ line }) => line.kind === "check")) {
        expect(line.nameInText).toBe(false);
        expect(line.description.toUpperCase()).not.toContain(txn.merchant.party!.split(" ")[0]);
      }
    }
  });

  it("only the enriched aggregator style gives a merchant name, mostly the right one and sometimes not", () => {
    for (const style of STYLE_NAMES.filter((s) => s !== "aggregator-named")) expect(book.lines[style].every((l) => l.merchantName === null)).toBe(true);
    const cards = printed(book, "aggregator-named").filter(({ line }) => line.kind === "card" || line.kind === "online");
    const right = cards.filter(({ line, txn }) => line.merchantName !== null && line.merchantName === txn.merchant.enriched).length;
    const wrong = cards.filter(({ line, txn }) => line.merchantName !== null && line.merchantName !== txn.merchant.enriched).length;
    expect(right / cards.length).toBeGreaterThan(0.6);
    expect(wrong).toBeGreaterThan(0);
    expect(printed(book, "aggregator-named").filter(({ line }) => ["check", "transfer-out", "p2p-out"].includes(line.kind)).every(({ line }) => line.merchantName === null)).toBe(true);
  });
});

describe("truncation", () => {
  it("cuts each style's lines at its stated width, and only there", () => {
    expect(STYLES["credit-union"].width).toBe(32);
    for (const style of STYLE_NAMES) {
      const width = STYLES[style].width;
      const longest = Math.max(...book.lines[style].map((l) => l.description.length));
      // Uncut styles run past the widest cut (55): card lines, ACH or wires.
      if (width === null) expect(longest, style).toBeGreaterThan(style === "bare-descriptor" || style === "neobank" ? 40 : 55);
      else expect(longest, style).toBe(width);
    }
    // A debit-card line is the style's words and the network's, cut at 32.
    const cut = onChecking("credit-union", ["card", "online"]).filter(({ line }) => line.description.startsWith("POS DEBIT-DC"));
    expect(cut.length).toBeGreaterThan(20);
    for (const { line, txn } of cut) {
      expect(line.description).toBe(`POS DEBIT-DC ${book.business.debitCardLast4} ${networkWords(txn)}`.slice(0, 32).trimEnd());
    }
    expect(cut.filter(({ line }) => line.description.length === 32).length).toBeGreaterThan(cut.length / 2);
  });
});

describe("ambiguous merchants", () => {
  const seeds = [11, 12, 13].map((seed) => (seed === 11 ? book : makeBook(seed)));

  it("really go to more than one category: by the amount, by the account, or by nothing on the line", () => {
    const modes = new Set<string>();
    for (const b of seeds) {
      const ambiguous = b.business.merchants.filter((m) => m.ambiguity !== "none");
      expect(ambiguous.length).toBeGreaterThanOrEqual(4);
      for (const m of ambiguous) {
        modes.add(m.ambiguity);
        const lines = b.txns.filter((t) => t.merchant === m);
        const categories = new Set(lines.map((t) => t.category));
        if (lines.length >= 20) expect(categories.size, m.name).toBeGreaterThan(1);
        expect(b.lines["checkcard"].filter((l) => l.merchantId === m.id).every((l) => l.ambiguity === m.ambiguity)).toBe(true);
        if (m.ambiguity === "by-account") {
          for (const category of categories) expect(new Set(lines.filter((t) => t.category === category).map((t) => t.account)).size).toBe(1);
        }
        if (m.ambiguity === "by-amount") {
          const ranges = [...categories].map((c) => lines.filter((t) => t.category === c).map((t) => Math.abs(t.amountCents))).map((a) => [Math.min(...a), Math.max(...a)] as const);
          for (const [low, high] of ranges) for (const [otherLow, otherHigh] of ranges) if (low !== otherLow) expect(high < otherLow || low > otherHigh).toBe(true);
        }
        if (m.ambiguity === "inseparable" && lines.length >= 40) {
          const biggest = Math.max(...[...categories].map((c) => lines.filter((t) => t.category === c).length));
          expect(biggest / lines.length, m.name).toBeLessThan(0.85);
        }
      }
    }
    expect(modes).toEqual(new Set(["by-amount", "by-account", "inseparable"]));
  });
});

describe("the test period", () => {
  it("holds about a tenth of its lines from merchants the training period never saw", () => {
    for (const b of [book, makeBook(12)]) {
      const trained = new Set(b.txns.filter((t) => t.period === "training").map((t) => t.merchant.id));
      const test = b.txns.filter((t) => t.period === "test");
      const unseen = test.filter((t) => !trained.has(t.merchant.id));
      expect(unseen.length / test.length).toBeGreaterThan(0.07);
      expect(unseen.length / test.length).toBeLessThan(0.13);
      expect(unseen.every((t) => t.merchant.isNew)).toBe(true);
      expect(b.txns.filter((t) => t.period === "training").some((t) => t.merchant.isNew)).toBe(false);
    }
    expect(book.txns.filter((t) => t.period === "training")).toHaveLength(3_000);
    expect(book.txns.filter((t) => t.period === "test")).toHaveLength(2_000);
    // In posting order, the test period after the training period.
    const dates = book.txns.map((t) => t.postedOn);
    expect(dates).toEqual([...dates].sort());
  });
});

describe("splits", () => {
  it("in one style: the first lines as labels, the test period to test, one style throughout", () => {
    const split = inStyle(book, "checkcard", 200);
    expect(split.labels.map((l) => l.id)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(split.test.every((l) => l.period === "test")).toBe(true);
    expect(new Set([...split.labels, ...split.test].map((l) => l.style))).toEqual(new Set(["checkcard"]));
  });

  it("in one style with labels at random: drawn from the whole training period, the same draw in every style, labelled lines first", () => {
    const split = inStyleAtRandom(book, "checkcard", 200);
    expect(split.labels).toHaveLength(200);
    expect(split.past).toHaveLength(3_000);
    expect(split.past.slice(0, 200)).toEqual(split.labels);
    expect(new Set(split.past.map((l) => l.id)).size).toBe(3_000);
    const ids = split.labels.map((l) => l.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(Math.max(...ids)).toBeGreaterThan(2_000);
    expect(ids).not.toEqual(inStyle(book, "checkcard", 200).labels.map((l) => l.id));
    expect(inStyleAtRandom(book, "neobank", 200).labels.map((l) => l.id)).toEqual(ids);
    expect(inStyleAtRandom(makeBook(12), "checkcard", 200).labels.map((l) => l.id)).not.toEqual(ids);
  });

  it("leave-one-style-out never shows the held-out style in training", () => {
    for (const heldOut of STYLE_NAMES) {
      for (const labels of [50, 1_000, 3_000]) {
        const split = leaveOneStyleOut(book, heldOut, labels);
        expect(split.trainingStyles).toHaveLength(5);
        expect(split.trainingStyles).not.toContain(heldOut);
        expect(split.labels.some((l) => l.style === heldOut)).toBe(false);
        expect(new Set(split.labels.map((l) => l.style)).size).toBeGreaterThan(1);
        expect(split.labels.every((l) => split.trainingStyles.includes(l.style))).toBe(true);
        expect(split.labels.map((l) => l.id)).toEqual(Array.from({ length: labels }, (_, i) => i + 1));
        expect(split.test.every((l) => l.style === heldOut && l.period === "test")).toBe(true);
      }
    }
  });
});
