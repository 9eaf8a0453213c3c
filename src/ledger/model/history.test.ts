/** The merchant's history: which of a line's words speak for its merchant, and what its lines say. */
import { describe, expect, it } from "vitest";
import { bump, type Corpus } from "./evidence";
import { featuresOfKey, lineKey } from "./features";
import { Histories, historyPrior } from "./history";

const CATEGORIES = ["Meals", "Owner draw", "Packaging", "Shipping", "Travel"];
const key = (description: string, cents = -2_000, account = "checking") => lineKey({ description, merchantName: null, amountCents: cents, accountId: account });

/** Histories of labelled keys, and the corpus of every key of the feed (labelled or not). */
function learn(labelled: [string, string][], feed: string[] = []) {
  const histories = new Histories(CATEGORIES.length);
  for (const [k, category] of labelled) {
    const lines = new Float64Array(CATEGORIES.length);
    lines[CATEGORIES.indexOf(category)] = 1;
    histories.add(k, featuresOfKey(k), lines);
  }
  const corpus: Corpus = { frequencies: new Map(), lines: new Map() };
  for (const k of [...labelled.map(([k]) => k), ...feed]) {
    if ((corpus.lines.get(k) ?? 0) === 0) for (const f of featuresOfKey(k)) bump(corpus.frequencies, f, 1);
    bump(corpus.lines, k, 1);
  }
  return {
    read: (k: string, category: string) => histories.read(k, featuresOfKey(k), CATEGORIES.indexOf(category), corpus),
    namesAny: (keys: string[]) => histories.namesAny(keys, corpus),
  };
}

const NAMES = ["ALDER", "BIRCH", "CEDAR", "DOGWOOD", "ELM", "FIR", "GINKGO", "HAZEL", "IVY", "JUNIPER", "KAPOK", "LARCH", "MAPLE", "NUTMEG", "OAK", "PINE"];
/** Each of many merchants' lines printed as `print` prints them: a bank's own words are common, a merchant's name is not. */
const printed = (print: (name: string) => string) => NAMES.flatMap((name) => [key(print(name), -1_200), key(print(name), -12_000)]);
const others: [string, string][] = printed((name) => `PURCHASE ${name} CAFE OAKLAND CA`).map((k) => [k, "Meals"]);

describe("the merchant's history", () => {
  // Six rides in three amount bands ($1.50, $15, $150) and two accounts, so on six line keys.
  const uber = Array.from({ length: 6 }, (_, i): [string, string] => [key(`PURCHASE UBER *TRIP ${i}X${i}Q HELP.UBER.COM CA`, -150 * 10 ** (i % 3), i % 2 ? "card" : "checking"), "Travel"]);
  const eats = Array.from({ length: 4 }, (_, i) => key(`PURCHASE UBER *EATS ${i}Z${i}W HELP.UBER.COM CA`, -250 * 10 ** (i % 2), i < 2 ? "card" : "checking"));

  it("reads the lines of the merchant the line names: every one agreeing, overall, in its band and in its account", () => {
    const { read } = learn([...others, ...uber], eats);
    const line = key("POS DEBIT UBER *TRIP 9Q9X HELP.UBER.COM CA", -1_600);
    const history = read(line, "Travel")!;
    expect(history.merchant).toEqual({ agree: 6, lines: 6 });
    // Of them, the two of $15 and the three paid from the checking account.
    expect(history.band).toEqual({ agree: 2, lines: 2 });
    expect(history.account).toEqual({ agree: 3, lines: 3 });
    // On an account none of its lines was paid from, and in a band none was in: nothing there.
    expect(read(key("POS DEBIT UBER *TRIP 9Q9X HELP.UBER.COM CA", -160_000, "savings"), "Travel")).toMatchObject({ band: { lines: 0 }, account: { lines: 0 } });
  });

  it("says, alone, what its narrowest view says: the merchant's lines, those in the line's band or those in its account", () => {
    const { read } = learn([...others, ...uber], eats);
    // Six rides agree, two of them in the line's band ($15) and three in its account: the band's two say least.
    expect(historyPrior(read(key("POS DEBIT UBER *TRIP 9Q9X HELP.UBER.COM CA", -1_600), "Travel")!)).toBeCloseTo(2.5 / 3);
  });

  it("reads an empty view as saying nothing, not as doubt: a ride at a new price is judged by the rides", () => {
    const { read } = learn([...others, ...uber], eats);
    // No ride of $1,600 and none on savings: the six rides, with half a line on each side, say 6.5 of 7.
    const history = read(key("POS DEBIT UBER *TRIP 9Q9X HELP.UBER.COM CA", -160_000, "savings"), "Travel")!;
    expect(history).toMatchObject({ band: { lines: 0 }, account: { lines: 0 } });
    expect(historyPrior(history)).toBeCloseTo(6.5 / 7);
  });

  it("has none for a merchant no example shows, however many examples share its lesser words", () => {
    // UBER *EATS after UBER *TRIP; PIRATE SHIP after ULINE *SHIP SUPPLIES: the most distinctive word is on the feed's lines and on no example.
    const uline = Array.from({ length: 5 }, (_, i): [string, string] => [key(`ULINE *SHIP SUPPLIES 800-295-${5500 + i} WI`, -900 * 10 ** (i % 3)), "Packaging"]);
    const pirate = [key("PIRATE SHIP PIRATESHIP.COM WA", -1_800), key("PIRATE SHIP PIRATESHIP.COM WA", -18_000)];
    const { read } = learn([...others, ...uber, ...uline], [...eats, ...pirate]);
    expect(read(eats[0]!, "Travel")).toBeNull();
    expect(read(pirate[0]!, "Packaging")).toBeNull();
    // The merchants the examples show still have theirs.
    expect(read(uline[0]![0], "Packaging")!.merchant.agree).toBe(5);
    // Paid the same sum every month, a new merchant prints one line key of many lines: its name is on two lines.
    const monthly = Array.from({ length: 6 }, () => key("PIRATE SHIP PIRATESHIP.COM WA", -1_800));
    expect(learn([...others, ...uber, ...uline], monthly).read(monthly[0]!, "Packaging")).toBeNull();
  });

  it("knows a word cut short or glued to the next field as the word an example has", () => {
    const depot = Array.from({ length: 5 }, (_, i): [string, string] => [key(`RESTAURANT DEPOT #${1000 + i} OAKLAND CA`, -30_000), "Meals"]);
    // A credit union's lines cut at 32 characters, and a NACHA field glued to the next, printed for every merchant.
    const cut = (name: string) => `POS DEBIT-DC 4821 ${name} WHOLESALE`.slice(0, 32);
    const glued = (name: string) => `ORIG CO NAME:${name} WHOLESALE CO ENTRY DESCR:${name}SEC:CCD`;
    const feed = [...printed(cut), ...printed(glued), ...printed(() => cut("RESTAURANT DEPOT")), ...printed(() => glued("RESTAURANT DEPOT"))];
    const { read } = learn([...others, ...depot], feed);
    expect(cut("RESTAURANT DEPOT")).toBe("POS DEBIT-DC 4821 RESTAURANT DEP");
    expect(read(key(cut("RESTAURANT DEPOT"), -1_200), "Meals")!.merchant.agree).toBe(5);
    expect(read(key(glued("RESTAURANT DEPOT"), -1_200), "Meals")!.merchant.agree).toBe(5);
  });

  it("knows a three-letter word glued to a word of the tenant's lines: `VENDOR PMT` run into NACHA's `SEC:`", () => {
    const summit = [1, 2, 3].map((i): [string, string] => [key(`SUMMIT ANCHOR VENDOR PMT ${4400 + i}`), "Shipping"]);
    // `CO ENTRY DESCR:` holds ten characters: a shorter entry is padded and leaves `SEC` a word of its own, a full one runs into it.
    const nacha = (name: string, entry: string) => `ORIG CO NAME:${name} CO ENTRY DESCR:${entry.padEnd(10)}SEC:CCD`;
    const summitOwn = (entry: string) => [key(nacha("SUMMIT ANCHOR", entry), -1_200), key(nacha("SUMMIT ANCHOR", entry), -12_000)];
    const elsewhere = [1, 2, 3, 4, 5, 6].map((i) => key(`SUMMIT ANCHOR DEPOSIT ${i}`, 100 * 10 ** (i % 4)));
    const feed = [...printed((name) => nacha(name, "PAYROLL")), ...summitOwn("VENDOR PMT"), ...summitOwn("PMTZQX"), ...elsewhere];
    const { read } = learn([...others, ...summit], feed);
    expect(nacha("SUMMIT ANCHOR", "VENDOR PMT")).toContain("DESCR:VENDOR PMTSEC:CCD");
    expect(read(summitOwn("VENDOR PMT")[0]!, "Shipping")!.merchant.agree).toBe(3);
    // Where the rest is no word of the tenant's lines, the word is one no example has: a merchant no example shows.
    expect(read(summitOwn("PMTZQX")[0]!, "Shipping")).toBeNull();
  });

  it("reads a word inside a line that begins several taught words as a word of its own, and at the line's end as one cut short", () => {
    const taught = [
      ...[1, 2, 3].map((i): [string, string] => [key(`GUSTO PAYROLL ${i}`, -500_000), "Shipping"]),
      ...[1, 2, 3].map((i): [string, string] => [key(`STRIPE PAYMENTS ${i}`, 90_000), "Travel"]),
      ...[1, 2, 3, 4].map((i): [string, string] => [key(`US FOODS INC ACH ${i}`, -150_000 * i), "Packaging"]),
    ];
    // A customer new to the tenant pays in; of its words, the entry's `PAY` is on fewest of the tenant's lines.
    const customer = (ending: string) => [600_000, 60_000].map((cents) => key(`BLUE PINE FOODS CORP PAY${ending}`, cents));
    const elsewhere = [1, 2, 3].flatMap((i) => [key(`BLUE BOTTLE ${i}`, -500 * i), key(`PINE STREET ${i}`, -700 * i), key(`ACME CORP ${i}`, -900 * i)]);
    const { read } = learn([...others, ...taught], [...customer(" ID 4411"), ...customer(""), ...elsewhere]);
    // Inside the line, `PAY` begins PAYROLL and PAYMENTS: a word no example has, so a merchant no example shows.
    expect(read(customer(" ID 4411")[0]!, "Packaging")).toBeNull();
    // At its end it may be either cut short: the line is read by the words an example has (`FOODS`).
    expect(read(customer("")[0]!, "Packaging")!.merchant).toEqual({ agree: 4, lines: 4 });
  });

  it("makes a line's last word whole where it begins one word an example has, and only then", () => {
    const histories = new Histories(CATEGORIES.length);
    for (const description of ["CHECKCARD 1014 STAPLES 00112233 OAKLAND CA", "CHECKCARD 1014 STARBUCKS 4411 OAKLAND CA", "CHECKCARD 1014 TARGET T-0412 OAKLAND CA"])
      histories.add(key(description), featuresOfKey(key(description)), Float64Array.of(1, 0, 0, 0, 0));
    // Cut at 32 characters, three letters into the merchant's name.
    expect(histories.completed(key("Withdrawal POS #495800812202 TAR"))).toBe(key("Withdrawal POS #495800812202 TARGET"));
    // Two words an example has begin so: which merchant it was cut from is unknown.
    expect(histories.completed(key("Withdrawal POS #495800812202 STA"))).toBe(key("Withdrawal POS #495800812202 STA"));
    // A word an example has, a word no example's begins, two letters, a last word of digits: as they are.
    for (const description of ["POS DEBIT STAPLES", "Withdrawal POS #495800812202 SPO", "Withdrawal POS #4958008122023 TA", "POS DEBIT TARGET 0412"])
      expect(histories.completed(key(description))).toBe(key(description));
    // A transfer cut into its account's last four: the one account an example has that begins so, and only one.
    const transfers = new Histories(CATEGORIES.length);
    for (const description of ["ONLINE TRANSFER TO COHEN 7631", "ONLINE TRANSFER TO COHEN 4411", "ONLINE TRANSFER TO SAVINGS 4419"])
      transfers.add(key(description), featuresOfKey(key(description)), Float64Array.of(0, 1, 0, 0, 0));
    expect(transfers.completed(key("Withdrawal Transfer To COHEN 763"))).toBe(key("Withdrawal Transfer To COHEN 7631"));
    expect(transfers.completed(key("Withdrawal Transfer To COHEN 441"))).toBe(key("Withdrawal Transfer To COHEN 441"));
  });

  it("takes no history from one key's aggregator merchant name that its description does not print", () => {
    const named = (description: string, merchantName: string, cents = -1_800) => lineKey({ description, merchantName, amountCents: cents, accountId: "checking" });
    const panera = named("PANERA BREAD #557121", "Panera Bread");
    // The aggregator named a software bill Panera Bread: one label, its text another merchant's.
    expect(learn([...others, [named("NOTION LABS, INC.", "Panera Bread", -1_600), "Shipping"]], [panera]).read(panera, "Shipping")).toBeNull();
    // The same name on two keys (two amounts), or printed by a description, is the merchant's history.
    const twice: [string, string][] = [-1_600, -16_000].map((cents) => [named("AMZN Mktp US*2K4XY9ZT1", "Panera Bread", cents), "Shipping"]);
    expect(learn([...others, ...twice], [panera]).read(panera, "Shipping")!.merchant).toEqual({ agree: 2, lines: 2 });
    expect(learn([...others, [named("PANERA BREAD #100200", "Panera Bread"), "Meals"]], [panera]).read(panera, "Meals")!.merchant).toEqual({ agree: 1, lines: 1 });
    // A line that does not print the name itself reads the aggregator's names as they are.
    const byName = named("POS DEBIT 4821", "Panera Bread");
    expect(learn([...others, [named("NOTION LABS, INC.", "Panera Bread", -1_600), "Shipping"]], [byName]).read(byName, "Shipping")!.merchant).toEqual({ agree: 1, lines: 1 });
  });

  it("reads a word of one or two letters (cut at the end of a narrow line, a state) as no merchant's name", () => {
    // Five lines on five keys (amounts and accounts apart); a bank no example came from cuts its lines after two letters of the city.
    const depot = Array.from({ length: 5 }, (_, i): [string, string] => [key("RESTAURANT DEPOT OAKLAND CA", -300 * 10 ** (i % 3), i < 3 ? "checking" : "card"), "Meals"]);
    const cut = [key("POS DEBIT-DC 4821 RESTAURANT DEPOT SA", -1_200), key("POS DEBIT-DC 4821 RESTAURANT DEPOT SA", -12_000)];
    const debit: [string, string][] = printed((name) => `POS DEBIT-DC 4821 ${name} CAFE OAKLAND CA`).map((k) => [k, "Meals"]);
    const { read } = learn([...others, ...debit, ...depot], cut);
    // `SA` is on fewer of the tenant's line keys than `DEPOT`, and on no example's.
    expect(read(cut[0]!, "Meals")).not.toBeNull();
  });

  it("shows a merchant whose lines went two ways as split, unless the line's account has always gone one way", () => {
    const store = [
      ...Array.from({ length: 6 }, (_, i): [string, string] => [key(`LOWES #${i} OAKLAND CA`, -4_000, "checking"), "Packaging"]),
      ...Array.from({ length: 6 }, (_, i): [string, string] => [key(`LOWES #${i} OAKLAND CA`, -4_000, "card"), "Owner draw"]),
    ];
    const { read } = learn([...others, ...store]);
    const onCard = read(key("LOWES #7 OAKLAND CA", -4_000, "card"), "Owner draw")!;
    expect(onCard.merchant).toEqual({ agree: 6, lines: 12 });
    expect(onCard.band).toEqual({ agree: 6, lines: 12 });
    expect(onCard.account).toEqual({ agree: 6, lines: 6 });
  });

  it("reads a pair of words for the merchant only where it holds the line's name: a pair bridging the name and the city is a subset that agreed by chance", () => {
    // A store whose lines go to two categories: some printed with the city after its name, some with its web address.
    const withCity = Array.from({ length: 6 }, (_, i): [string, string] => [key("AMZN MKTP US OAKLAND CA", -1_000 * (i + 2)), "Packaging"]);
    const online = Array.from({ length: 12 }, (_, i): [string, string] => [key("AMZN MKTP US AMZN.COM/BILL WA", -1_000 * (i + 2)), i < 8 ? "Packaging" : "Owner draw"]);
    const { read } = learn([...others, ...withCity, ...online]);
    // `US OAKLAND`'s six lines all agree; the store's eighteen do not.
    expect(read(key("AMZN MKTP US OAKLAND CA", -5_000), "Packaging")!.merchant).toEqual({ agree: 14, lines: 18 });
  });

  it("counts the merchant's lines whose money went the line's way, at any size", () => {
    const landlord = Array.from({ length: 4 }, (_, i): [string, string] => [key(`ROBINSON HOLDING RENT ${250300 + i}`, -250_000), "Owner draw"]);
    const { read } = learn([...others, ...landlord]);
    expect(read(key("ROBINSON HOLDING RENT 250399", -90_000), "Owner draw")!.direction).toEqual({ agree: 4, lines: 4 });
    expect(read(key("ROBINSON HOLDING RENT 250399", 250_000), "Owner draw")!.direction).toEqual({ agree: 0, lines: 0 });
  });

  it("reads a transfer by the other account's last four alone, whatever the bank's words around them", () => {
    // The owner pays a contractor from the phone and draws from the browser, on the same bank.
    const contractor = [1, 2].map((): [string, string] => [key("MOBILE BANKING TRANSFER WITHDRAWAL 7636", -40_000), "Shipping"]);
    const owner = [1, 2].map((): [string, string] => [key("INTERNET BANKING TRANSFER WITHDRAWAL 7033", -40_000), "Owner draw"]);
    const { read, namesAny } = learn([...others, ...contractor, ...owner]);
    const line = key("INTERNET BANKING TRANSFER WITHDRAWAL 7636", -40_000);
    expect(read(line, "Shipping")!.merchant).toEqual({ agree: 2, lines: 2 });
    expect(read(line, "Owner draw")!.merchant).toEqual({ agree: 0, lines: 2 });
    // Shortened as some banks print the word, the same account's history.
    expect(read(key("Internet Trf To DDA 7636", -40_000), "Shipping")!.merchant).toEqual({ agree: 2, lines: 2 });
    // An account no example shows has no history.
    expect(read(key("INTERNET BANKING TRANSFER WITHDRAWAL 5207", -40_000), "Owner draw")).toBeNull();
    // Cut by a narrow bank's width, each account keeps what the line shows of it: the owner's own and a
    // contractor's who shares the owner's surname are two parties.
    const cut = learn([...others, ...[1, 2, 3].map((): [string, string] => [key("Withdrawal Transfer To COHEN 441", -40_000), "Owner draw"])]);
    expect(cut.read(key("Withdrawal Transfer To COHEN 441", -40_000), "Owner draw")!.merchant).toEqual({ agree: 3, lines: 3 });
    expect(cut.read(key("Withdrawal Transfer To COHEN 763", -40_000), "Owner draw")).toBeNull();
    // A person's change of a transfer holds back that account's lines, not another's.
    const held = namesAny([contractor[0]![0]]);
    expect(held(line)).toBe(true);
    expect(held(owner[0]![0])).toBe(false);
    // A bank that prints both accounts: the business's own is on every transfer, the party's is the rarer.
    const both = (to: string, cents = -40_000) => key(`ONLINE TRANSFER FROM CHK 1234 TO SAV ${to}`, cents);
    const twoWays = learn([...others, [both("7636"), "Shipping"], [both("7636", -4_000), "Shipping"], [both("7033"), "Owner draw"], [both("7033", -4_000), "Owner draw"]]);
    expect(twoWays.read(both("7636", -400_000), "Owner draw")!.merchant).toEqual({ agree: 0, lines: 2 });
  });

  it("tells the lines that may name the merchant of a person's change from those that name another", () => {
    const { namesAny } = learn([...others, ...uber], eats);
    // A person relabelled a ride printed by one bank; the same merchant printed by another is held back either way round.
    const held = namesAny([key("PURCHASE UBER *TRIP 1X1Q HELP.UBER.COM CA")]);
    expect(held(key("POS DEBIT UBER *TRIP 9Q9X HELP.UBER.COM CA"))).toBe(true);
    expect(held(key("UBER"))).toBe(true);
    // Cut three letters into the name, as the model reads it.
    expect(held(key("Withdrawal POS #495800812202 UBE"))).toBe(true);
    expect(held(key("Withdrawal POS #495800812202 MAP"))).toBe(false);
    // Other merchants are not, though they share the bank's words and the city, or a lesser word (UBER *EATS is not UBER *TRIP).
    expect(held(key("UBER *EATS 4Z4W", -3_000))).toBe(false);
    expect(held(key("PURCHASE MAPLE CAFE OAKLAND CA"))).toBe(false);
    expect(held(key("POS DEBIT ELM CAFE OAKLAND CA", -900))).toBe(false);
    // A change whose line names no word the feed has twice holds back lines sharing any of its words.
    const odd = namesAny([key("ZELLE TO QUINCE")]);
    expect(odd(key("QUINCE HARDWARE"))).toBe(true);
    expect(odd(key("PURCHASE MAPLE CAFE OAKLAND CA"))).toBe(false);
  });
});
