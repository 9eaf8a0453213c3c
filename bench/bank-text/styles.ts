/**
 * Bank text styles: how one bank prints every kind of line (card purchases, ACH, wires,
 * transfers, Zelle, checks, deposits, ATM, fees, interest) for the same transactions.
 * Each is written from the shapes real US banks and aggregators deliver (the bank each is
 * modelled on is named beside it; the text is synthetic, the shapes are theirs), with the
 * noise real feeds carry: dates and times, reference and trace codes, store numbers,
 * fixed-width fields that pad with spaces or glue the city to the name, truncation, mixed
 * case.
 *
 * The card network's own fields come first: a name of up to 25 characters (with the
 * processor's prefix: `SQ *`, `TST* `, `PAYPAL *`, `AMZN Mktp US*...`), a city of up to
 * 13 (or a web address or phone number when the card was not present) and a state. Banks
 * wrap those in their own words.
 */
import { type Business, type Txn, titleCase } from "./business";
import { BANK_NAMES, CITIES, STREETS } from "./names";
import type { Rand } from "./random";

export interface Printed {
  description: string;
  /** The aggregator's `merchant_name`: only the enriched style has one. */
  merchantName: string | null;
}

export interface Style {
  /** What it is modelled on. */
  modelledOn: string;
  /** The width the feed cuts descriptions at, or null. */
  width: number | null;
  print(t: Txn, b: Business, r: Rand): Printed;
}

const mm = (iso: string) => iso.slice(5, 7);
const dd = (iso: string) => iso.slice(8, 10);
const yy = (iso: string) => iso.slice(2, 4);
const mmdd = (iso: string) => `${mm(iso)}/${dd(iso)}`;
const mmddyy = (iso: string) => `${mm(iso)}/${dd(iso)}/${yy(iso)}`;
const yymmdd = (iso: string) => `${yy(iso)}${mm(iso)}${dd(iso)}`;
const yyyymmdd = (iso: string) => iso.replace(/-/g, "");
const hhmm = (r: Rand) => `${String(r.int(6, 19)).padStart(2, "0")}${String(r.int(0, 59)).padStart(2, "0")}`;
const pad = (text: string, width: number) => text.slice(0, width).padEnd(width);
const single = (text: string) => text.replace(/\s+/g, " ").trim();

/** The card network's fields: spaced as words, in fixed-width columns, or the city glued to the name. */
function network(t: Txn, layout: "spaced" | "fixed" | "glued"): string {
  const name = t.descriptor.slice(0, 25);
  const [city, state] = t.merchant.place ?? ["", ""];
  if (layout === "fixed") return `${pad(name, 25)}${pad(city, 13)}${state}`;
  if (layout === "glued") return `${name}${city.slice(0, 13)} ${state}`;
  return single(`${name} ${city.slice(0, 13)} ${state}`);
}

const isCard = (t: Txn) => t.merchant.kind === "card" || t.merchant.kind === "online";
const person = (party: string | null) => {
  const [first = "", ...rest] = (party ?? "").split(" ");
  return { first, last: rest.join(" ") };
};
/** "NGUYEN T": surname and initial, as transfer lines name account holders. */
const surnameInitial = (party: string | null) => {
  const p = person(party);
  return p.last ? `${p.last} ${p.first.charAt(0)}` : p.first;
};
const bank = (r: Rand) => r.pick(BANK_NAMES);
const street = (r: Rand) => `${r.int(10, 9999)} ${r.pick(STREETS)}`;
const cityState = (b: Business, r: Rand) => (r.chance(0.8) ? b.home : r.pick(CITIES)).join(" ");
const savingsLike = (label: string) => /SAV|MONEY/.test(label);
const ach = (t: Txn) => t.merchant.ach!;
const feeKind = (t: Txn) => t.merchant.party as "MONTHLY" | "WIRE" | "OVERDRAFT";
const dollars = (t: Txn) => (Math.abs(t.amountCents) / 100).toFixed(2);

/** In the manner of Wells Fargo: `PURCHASE AUTHORIZED ON MM/DD ... S<ref> CARD 4821`. */
const authorizedOn: Style = {
  modelledOn: "Wells Fargo",
  width: null,
  print(t, b, r) {
    const d = t.postedOn;
    switch (t.merchant.kind) {
      case "card":
      case "online": {
        if (t.account === "card") return plain(network(t, "spaced"));
        const words = t.merchant.recurring ? "RECURRING PAYMENT AUTHORIZED ON" : "PURCHASE AUTHORIZED ON";
        return plain(`${words} ${mmdd(t.purchasedOn)} ${network(t, r.chance(0.2) ? "glued" : "spaced")} S${r.digits(15)} CARD ${b.debitCardLast4}`);
      }
      case "ach-debit":
      case "ach-credit": {
        const a = ach(t);
        const lead = a.sec === "CCD" && r.chance(0.4) ? `BUSINESS TO BUSINESS ACH ${t.merchant.kind === "ach-debit" ? "DEBIT" : "CREDIT"} - ` : "";
        return plain(`${lead}${a.company} ${t.entry} ${yymmdd(d)} ${t.individualId} ${b.legalName.slice(0, 22)}`);
      }
      case "wire-in":
        return plain(`WT FED#${r.digits(5)} ${bank(r)} /ORG=${t.merchant.party} SRF# ${r.code(16)} TRN#${yymmdd(d)}${r.digits(6)} RFB# ${t.memo}`);
      case "wire-out":
        return plain(`WT ${yymmdd(d)}-${r.digits(6)} ${bank(r)} /BNF=${t.merchant.party} SRF# ${r.code(16)} TRN#${yymmdd(d)}${r.digits(6)} RFB# ${r.digits(9)}`);
      case "transfer-out":
      case "transfer-in": {
        const to = t.merchant.toAccount!;
        const holder = savingsLike(to.label) || t.merchant.party === b.legalName ? b.legalName : surnameInitial(t.merchant.party);
        const direction = t.merchant.kind === "transfer-out" ? "TO" : "FROM";
        return plain(`ONLINE TRANSFER ${direction} ${holder} ${to.label} XXXXXX${to.mask} REF #IB${r.code(5)} ON ${mmddyy(d)}`);
      }
      case "p2p-out":
        return plain(`ZELLE TO ${person(t.merchant.party).last} ${person(t.merchant.party).first} ON ${mmdd(d)} REF # PP0${r.code(6)}`);
      case "p2p-in":
        return plain(`ZELLE FROM ${t.merchant.party} ON ${mmdd(d)} REF # BAC${r.code(9)}`);
      case "check":
        return plain(r.chance(0.5) ? `CHECK # ${t.checkNumber}` : `CHECK ${t.checkNumber}`);
      case "deposit":
        return plain(
          r.pick([
            "DEPOSIT MADE IN A BRANCH/STORE",
            `MOBILE DEPOSIT : REF NUMBER :${r.digits(9)}`,
            `ATM CHECK DEPOSIT ON ${mmdd(d)} ${street(r)} ${cityState(b, r)} 0${r.digits(5)} ATM ID ${r.digits(4)}A CARD ${b.debitCardLast4}`,
          ]),
        );
      case "atm":
        return plain(`ATM WITHDRAWAL AUTHORIZED ON ${mmdd(d)} ${street(r)} ${cityState(b, r)} ${r.digits(7)} ATM ID ${r.digits(4)}L CARD ${b.debitCardLast4}`);
      case "fee":
        return plain(
          {
            MONTHLY: "MONTHLY SERVICE FEE",
            WIRE: `WIRE TRANS SVC CHARGE - SEQUENCE: ${yymmdd(d)}${r.digits(6)} SRF# ${r.code(16)} TRN#${yymmdd(d)}${r.digits(6)} RFB# ${r.digits(9)}`,
            OVERDRAFT: `OVERDRAFT FEE FOR A $${r.int(5, 900)}.${r.digits(2)} ITEM - DETAILS: ${mmdd(d)} ${r.code(8)}`,
          }[feeKind(t)],
        );
      case "interest":
        return plain("INTEREST PAYMENT");
    }
  },
};

/** In the manner of Chase: `CARD PURCHASE MM/DD ... CARD 4821`, and ACH in the full NACHA fields. */
const cardPurchase: Style = {
  modelledOn: "Chase",
  width: null,
  print(t, b, r) {
    const d = t.postedOn;
    switch (t.merchant.kind) {
      case "card":
      case "online": {
        if (t.account === "card") return plain(network(t, "spaced"));
        const words = t.merchant.recurring ? "RECURRING CARD PURCHASE" : t.merchant.kind === "card" && r.chance(0.2) ? "CARD PURCHASE WITH PIN" : "CARD PURCHASE";
        return plain(`${words} ${mmdd(t.purchasedOn)} ${network(t, "spaced")} CARD ${b.debitCardLast4}`);
      }
      case "ach-debit":
      case "ach-credit": {
        const a = ach(t);
        // The bank's own column widths, kept by some feeds and collapsed by others.
        const text = `ORIG CO NAME:${pad(a.company, 16)} ORIG ID:${a.companyId} DESC DATE:${yymmdd(d)} CO ENTRY DESCR:${pad(t.entry, 10)}SEC:${a.sec}    TRACE#:${r.digits(15)} EED:${yymmdd(d)}   IND ID:${pad(t.individualId, 15)} IND NAME:${b.legalName.slice(0, 22)} TRN: ${r.digits(10)}TC`;
        return plain(r.chance(0.5) ? text : single(text));
      }
      case "wire-in":
        return plain(
          `FEDWIRE CREDIT VIA: ${bank(r)}/${r.digits(9)} B/O: ${t.merchant.party} ${cityState(b, r)} REF: CHASE NYC/CTR/BNF=${b.legalName} /AC-${r.digits(12)} RFB=${t.memo} IMAD: ${yyyymmdd(d)}${r.code(8)}${r.digits(6)} TRN: ${r.digits(10)}FF`,
        );
      case "wire-out":
        return plain(`ONLINE DOMESTIC WIRE TRANSFER VIA: ${bank(r)}/${r.digits(9)} A/C: ${t.merchant.party} ${cityState(b, r)} REF: ${t.memo} IMAD: ${yyyymmdd(d)}${r.code(8)}${r.digits(6)} TRN: ${r.digits(10)}ES`);
      case "transfer-out":
      case "transfer-in": {
        const to = t.merchant.toAccount!;
        const direction = t.merchant.kind === "transfer-out" ? "to" : "from";
        return plain(`Online Transfer ${direction} ${savingsLike(to.label) ? "SAV" : "CHK"} ...${to.mask} transaction#: ${r.digits(11)} ${mmdd(d)}`);
      }
      case "p2p-out":
        return plain(`Zelle payment to ${titleCase(t.merchant.party!)} JPM99${r.code(6)}`);
      case "p2p-in":
        return plain(`Zelle payment from ${t.merchant.party} ${r.code(12)}`);
      case "check":
        return plain(`CHECK ${t.checkNumber}`);
      case "deposit":
        return plain(r.pick(["REMOTE ONLINE DEPOSIT #          1", `DEPOSIT  ID NUMBER ${r.digits(6)}`, `ATM CHECK DEPOSIT ${mmdd(d)} ${street(r)} ${cityState(b, r)}`]));
      case "atm":
        return plain(`ATM WITHDRAWAL                       ${r.digits(6)}  ${mmdd(d)}${street(r)}`);
      case "fee":
        return plain(
          {
            MONTHLY: "MONTHLY SERVICE FEE",
            WIRE: r.pick(["ONLINE DOMESTIC WIRE FEE", "DOMESTIC INCOMING WIRE FEE"]),
            OVERDRAFT: `INSUFFICIENT FUNDS FEE FOR A $${dollars(t)} ITEM - DETAILS: ${r.code(10)}`,
          }[feeKind(t)],
        );
      case "interest":
        return plain("INTEREST PAYMENT");
    }
  },
};

/** In the manner of Bank of America: `CHECKCARD MMDD ...`, `DES: ID: INDN: CO ID:`, `WIRE TYPE:WIRE IN`. */
const checkcard: Style = {
  modelledOn: "Bank of America",
  width: null,
  print(t, b, r) {
    const d = t.postedOn;
    const mmddTight = `${mm(t.purchasedOn)}${dd(t.purchasedOn)}`;
    switch (t.merchant.kind) {
      case "card":
      case "online": {
        if (t.account === "card") return plain(network(t, "spaced"));
        if (t.merchant.kind === "card" && r.chance(0.15)) return plain(`PURCHASE ${mmddTight} ${network(t, "spaced")}`);
        return plain(`CHECKCARD ${mmddTight} ${network(t, "spaced")} ${r.digits(23)}${t.merchant.recurring ? " RECURRING" : ""}`);
      }
      case "ach-debit":
      case "ach-credit": {
        const a = ach(t);
        return plain(`${a.company} DES:${t.entry} ID:${t.individualId} INDN:${b.legalName.slice(0, 22)} CO ID:${a.companyId} ${a.sec}`);
      }
      case "wire-in":
        return plain(
          `WIRE TYPE:WIRE IN DATE:${yymmdd(d)} TIME:${hhmm(r)} ET TRN:${yyyymmdd(d)}${r.digits(6)} SEQ:${r.digits(7)}/${r.digits(6)} ORIG:${t.merchant.party!.slice(0, 35)} ID:${r.digits(10)} SND BK:${bank(r)} ID:${r.digits(9)} PMT DET:${t.memo}`,
        );
      case "wire-out":
        return plain(
          `WIRE TYPE:WIRE OUT DATE:${yymmdd(d)} TIME:${hhmm(r)} ET TRN:${yyyymmdd(d)}${r.digits(6)} SERVICE REF:${r.digits(6)} BNF:${t.merchant.party!.slice(0, 35)} ID:${r.digits(10)} BNF BK:${bank(r)} ID:${r.digits(9)} PMT DET:${t.memo}`,
        );
      case "transfer-out":
      case "transfer-in": {
        const to = t.merchant.toAccount!;
        const direction = t.merchant.kind === "transfer-out" ? "to" : "from";
        return plain(`Online Banking transfer ${direction} ${savingsLike(to.label) ? "SAV" : "CHK"} ${to.mask} Confirmation# ${r.digits(10)}`);
      }
      case "p2p-out":
        return plain(r.chance(0.5) ? `Zelle Transfer Conf# ${r.code(9).toLowerCase()}; ${titleCase(t.merchant.party!)}` : `Zelle payment to ${titleCase(t.merchant.party!)} Conf# ${r.code(9).toLowerCase()}`);
      case "p2p-in":
        return plain(`Zelle payment from ${t.merchant.party} Conf# ${r.code(9).toLowerCase()}`);
      case "check":
        return plain(`Check ${t.checkNumber}`);
      case "deposit":
        return plain(
          r.pick([
            `BKOFAMERICA MOBILE ${mmdd(d)} ${r.digits(10)} DEPOSIT *MOBILE ${b.home[1]}`,
            `BKOFAMERICA ATM ${mmdd(d)} #${r.digits(6)} DEPOSIT ${street(r)} ${cityState(b, r)}`,
            "Counter Credit",
          ]),
        );
      case "atm":
        return plain(`BKOFAMERICA ATM ${mmdd(d)} #${r.digits(6)} WITHDRWL ${street(r)} ${cityState(b, r)}`);
      case "fee":
        return plain(
          {
            MONTHLY: "Monthly Fee Business Adv Fundamentals",
            WIRE: "Wire Transfer Fee",
            OVERDRAFT: `OVERDRAFT ITEM FEE FOR ACTIVITY OF ${mm(d)}-${dd(d)} ELECTRONIC TRANSACTION POSTING DATE ${mm(d)}-${dd(d)}-${yy(d)} POSTING SEQ ${r.digits(5)}`,
          }[feeKind(t)],
        );
      case "interest":
        return plain("Interest Earned");
    }
  },
};

/** In the manner of U.S. Bank: `DEBIT PURCHASE -VISA` with the network's fixed-width columns. */
const debitPurchaseVisa: Style = {
  modelledOn: "U.S. Bank",
  width: null,
  print(t, b, r) {
    const d = t.postedOn;
    switch (t.merchant.kind) {
      case "card":
      case "online":
        if (t.account === "card") return plain(network(t, "fixed"));
        return plain(`${t.merchant.recurring ? "RECURRING DEBIT PURCHASE" : "DEBIT PURCHASE -VISA"} ${network(t, "fixed")}`);
      case "ach-debit": {
        const a = ach(t);
        return plain(a.sec === "WEB" ? `WEB AUTHORIZED PMT ${a.company}` : `ELECTRONIC WITHDRAWAL ${r.chance(0.5) ? a.company : `${pad(a.company, 16)} ${t.entry}`}`);
      }
      case "ach-credit":
        return plain(`ELECTRONIC DEPOSIT ${r.chance(0.5) ? ach(t).company : `${pad(ach(t).company, 16)} ${t.entry}`}`);
      case "wire-in":
        return plain(`INCOMING WIRE ${t.merchant.party} REF ${r.digits(8)}`);
      case "wire-out":
        return plain(`OUTGOING WIRE ${t.merchant.party} REF ${r.digits(8)}`);
      case "transfer-out":
      case "transfer-in":
        return plain(`${r.pick(["MOBILE BANKING", "INTERNET BANKING"])} TRANSFER ${t.merchant.kind === "transfer-out" ? "WITHDRAWAL" : "DEPOSIT"} ${t.merchant.toAccount!.mask}`);
      case "p2p-out":
        return plain(`ZELLE INSTANT PMT TO ${t.merchant.party}`);
      case "p2p-in":
        return plain(`ZELLE INSTANT PMT FROM ${t.merchant.party}`);
      case "check":
        return plain(`CHECK ${t.checkNumber}`);
      case "deposit":
        return plain(r.pick(["DEPOSIT", "MOBILE CHECK DEPOSIT"]));
      case "atm":
        return plain(r.chance(0.7) ? `ATM WITHDRAWAL ${street(r)} ${cityState(b, r)}` : "NON-U.S. BANK ATM WITHDRAWAL");
      case "fee":
        return plain({ MONTHLY: "MAINTENANCE FEE", WIRE: "WIRE TRANSFER FEE", OVERDRAFT: "OVERDRAFT PAID FEE" }[feeKind(t)]);
      case "interest":
        return plain("INTEREST PAID");
    }
  },
};

/** In the manner of PNC: `DEBIT CARD PURCHASE XXXXX4291 ...`, or the merchant first and `POS PURCHASE` after; cut at 55. */
const debitCardMasked: Style = {
  modelledOn: "PNC",
  width: 55,
  print(t, b, r) {
    const d = t.postedOn;
    switch (t.merchant.kind) {
      case "card":
      case "online": {
        if (t.account === "card") return plain(network(t, "spaced"));
        if (t.merchant.recurring) return plain(`RECURRING DEBIT CARD XXXXX${b.debitCardLast4} ${network(t, "spaced")}`);
        if (t.merchant.kind === "card" && r.chance(0.5)) return plain(`${network(t, "spaced")} POS PURCHASE POS${r.digits(3)} XXX${r.digits(2)}`);
        return plain(`DEBIT CARD PURCHASE XXXXX${b.debitCardLast4} ${network(t, "spaced")}`);
      }
      case "ach-debit":
      case "ach-credit": {
        const a = ach(t);
        if (a.sec === "CCD") return plain(`CORPORATE ACH ${t.entry} ${a.company} ${a.companyId}`);
        return plain(`ACH ${t.merchant.kind === "ach-debit" ? (a.sec === "WEB" ? "WEB" : "DEBIT") : "CREDIT"} ${t.entry} ${a.company} ${t.individualId}`);
      }
      case "wire-in":
        return plain(`FED WIRE IN ${r.digits(8)} ${t.merchant.party}`);
      case "wire-out":
        return plain(`WIRE TRANSFER OUT ${r.digits(8)} ${t.merchant.party}`);
      case "transfer-out":
        return plain(`ONLINE TRANSFER TO ${savingsLike(t.merchant.toAccount!.label) ? "SAVINGS " : ""}XXXXXX${t.merchant.toAccount!.mask}`);
      case "transfer-in":
        return plain(`ONLINE TRANSFER FROM XXXXXX${t.merchant.toAccount!.mask}`);
      case "p2p-out":
        return plain(`ZELLE TO ${person(t.merchant.party).last} ${person(t.merchant.party).first} ${r.code(10)}`);
      case "p2p-in":
        return plain(`ZELLE FROM ${person(t.merchant.party).last} ${person(t.merchant.party).first} ${r.code(10)}`);
      case "check":
        return plain(`CHECK ${t.checkNumber}`);
      case "deposit":
        return plain(r.pick(["MOBILE DEPOSIT", `DEPOSIT ${r.digits(6)}`, `ATM DEPOSIT ${street(r)}`]));
      case "atm":
        return plain(`ATM WITHDRAWAL PNC BANK ATM ${street(r)} ${cityState(b, r)}`);
      case "fee":
        return plain({ MONTHLY: `SERVICE CHARGE PERIOD ENDING ${mm(d)}-${dd(d)}-20${yy(d)}`, WIRE: "WIRE TRANSFER FEE", OVERDRAFT: "OVERDRAFT ITEM FEE" }[feeKind(t)]);
      case "interest":
        return plain("INTEREST PAYMENT");
    }
  },
};

/** In the manner of credit unions (Navy Federal's `POS DEBIT-DC 4821`, share drafts, dividends): terse, mixed case, cut at 32. */
const creditUnion: Style = {
  modelledOn: "credit unions (Navy Federal and others)",
  width: 32,
  print(t, b, r) {
    const d = t.postedOn;
    switch (t.merchant.kind) {
      case "card":
      case "online": {
        if (t.account === "card") return plain(network(t, "spaced"));
        const lead = r.pick([`POS DEBIT-DC ${b.debitCardLast4}`, `POS DEBIT-DC ${b.debitCardLast4}`, `Withdrawal POS #${r.digits(12)}`, `DBT CRD ${hhmm(r)} ${mmddyy(t.purchasedOn)}`, "POS Withdrawal"]);
        return plain(`${lead} ${network(t, "spaced")}`);
      }
      case "ach-debit":
        return plain(r.chance(0.5) ? `ACH DEBIT ${ach(t).company} ${t.entry}` : `Withdrawal ACH ${ach(t).company} TYPE: ${t.entry} ID: ${ach(t).companyId}`);
      case "ach-credit":
        return plain(r.chance(0.5) ? `ACH Deposit ${ach(t).company} ${t.entry}` : `Deposit ACH ${ach(t).company} TYPE: ${t.entry}`);
      case "wire-in":
        return plain(`Wire In ${t.merchant.party}`);
      case "wire-out":
        return plain(`Wire Out ${t.merchant.party}`);
      case "transfer-out":
        return plain(savingsLike(t.merchant.toAccount!.label) ? `Transfer To Shares ${t.merchant.toAccount!.mask}` : `Withdrawal Transfer To ${person(t.merchant.party).last} ${t.merchant.toAccount!.mask}`);
      case "transfer-in":
        return plain(`Transfer From Shares ${t.merchant.toAccount!.mask}`);
      case "p2p-out":
        return plain(`Withdrawal Zelle ${t.merchant.party}`);
      case "p2p-in":
        return plain(`Deposit Zelle ${t.merchant.party}`);
      case "check":
        return plain(r.chance(0.6) ? `Share Draft #${t.checkNumber}` : `Draft ${t.checkNumber}`);
      case "deposit":
        return plain(r.pick(["Deposit Shared Branch", "Deposit Mobile", "Deposit"]));
      case "atm":
        return plain(`Withdrawal ATM #${r.digits(6)} ${street(r)}`);
      case "fee":
        return plain({ MONTHLY: "Fee Monthly Maintenance", WIRE: "Fee Wire Out", OVERDRAFT: "Fee Courtesy Pay" }[feeKind(t)]);
      case "interest":
        return plain(r.chance(0.5) ? "Dividend" : `Dividend Earned ${mmddyy(d)}`);
    }
  },
};

/** In the manner of card issuers and online banks (Amex, Capital One, Citi): the network's fields as they come, no bank words. */
const bareDescriptor: Style = {
  modelledOn: "card issuers and online banks (Amex, Capital One, Citi)",
  width: null,
  print(t, b, r) {
    const d = t.postedOn;
    switch (t.merchant.kind) {
      case "card":
      case "online": {
        const text = network(t, r.chance(0.6) ? "fixed" : "spaced");
        return plain(r.chance(0.4) ? titleCase(text) : text);
      }
      case "ach-debit":
      case "ach-credit": {
        const a = ach(t);
        return plain(`${pad(a.company, 16)} ${pad(t.entry, 10)}  ${a.sec} ID: ${a.companyId}`);
      }
      case "wire-in":
        return plain(`WIRE FROM ${t.merchant.party} ${t.memo}`);
      case "wire-out":
        return plain(`WIRE TO ${t.merchant.party} ${t.memo}`);
      case "transfer-out":
      case "transfer-in": {
        const to = t.merchant.toAccount!;
        const holder = savingsLike(to.label) ? titleCase(to.label) : titleCase(t.merchant.party!);
        return plain(`${t.merchant.kind === "transfer-out" ? "Withdrawal to" : "Deposit from"} ${holder} XXXXXX${to.mask}`);
      }
      case "p2p-out":
        return plain(`Zelle money sent to ${titleCase(t.merchant.party!)}`);
      case "p2p-in":
        return plain(`Zelle money received from ${titleCase(t.merchant.party!)}`);
      case "check":
        return plain(`Check #${t.checkNumber}`);
      case "deposit":
        return plain(r.pick(["Mobile Deposit", "Deposit"]));
      case "atm":
        return plain(`ATM Withdrawal - ${titleCase(street(r))} ${titleCase(b.home[0])}`);
      case "fee":
        return plain({ MONTHLY: "Service Fee", WIRE: "Wire Fee", OVERDRAFT: "Overdraft Fee" }[feeKind(t)]);
      case "interest":
        return plain(`Monthly Interest Paid ${mmdd(d)}`);
    }
  },
};

/**
 * What an aggregator's enrichment says the merchant is: usually right, sometimes missing,
 * sometimes the processor's name or another merchant's.
 */
function enrichment(t: Txn, b: Business, r: Rand): string | null {
  const roll = r.float();
  if (roll < 0.85) return t.merchant.enriched;
  if (roll < 0.93) return null;
  const processor = /^(SQ \*|TST\* |CLV\*|SP |PAYPAL \*)/.exec(t.descriptor)?.[1];
  if (processor) return { "SQ *": "Square", "TST* ": "Toast", "CLV*": "Clover", "SP ": "Shopify", "PAYPAL *": "PayPal" }[processor] ?? null;
  // Another merchant paid the same way: a plausible name, and the wrong one.
  const alike = b.merchants.filter((m) => m.enriched && m !== t.merchant && (m.kind === t.merchant.kind || (isCard(t) && (m.kind === "card" || m.kind === "online"))));
  return alike.length > 0 ? r.pick(alike).enriched : null;
}

/** Aggregator-enriched (Plaid's `name` and `merchant_name`): a cleaned name, and the merchant's name beside it. */
const aggregatorNamed: Style = {
  modelledOn: "an aggregator's enriched lines (Plaid `name` with `merchant_name`)",
  width: null,
  print(t, b, r) {
    const d = t.postedOn;
    const named = (description: string): Printed => ({ description, merchantName: enrichment(t, b, r) });
    switch (t.merchant.kind) {
      case "card":
      case "online": {
        const bare = t.descriptor.replace(/^(SQ \*|TST\* |CLV\*|SP )/, "");
        const roll = r.float();
        return named(roll < 0.5 ? titleCase(bare) : roll < 0.8 ? t.descriptor : titleCase(network(t, "spaced")));
      }
      case "ach-debit":
      case "ach-credit":
        return named(r.chance(0.5) ? titleCase(`${ach(t).company} ${t.entry}`) : `${ach(t).company} ${t.entry} ${t.individualId}`);
      case "wire-in":
        return plain(`Incoming Wire Transfer ${titleCase(t.merchant.party!)} ${t.memo}`);
      case "wire-out":
        return plain(`Outgoing Wire Transfer ${titleCase(t.merchant.party!)}`);
      case "transfer-out":
        return plain(`Online Transfer to ${savingsLike(t.merchant.toAccount!.label) ? "SAV" : "CHK"} ...${t.merchant.toAccount!.mask}`);
      case "transfer-in":
        return plain(`Online Transfer from SAV ...${t.merchant.toAccount!.mask}`);
      case "p2p-out":
        return plain(`Zelle payment to ${titleCase(t.merchant.party!)}${r.chance(0.5) ? ` ${r.code(10)}` : ""}`);
      case "p2p-in":
        return plain(`Zelle payment from ${titleCase(t.merchant.party!)}`);
      case "check":
        return plain(`Check ${t.checkNumber}`);
      case "deposit":
        return plain(r.pick(["Mobile Deposit", "Deposit", "Branch Deposit"]));
      case "atm":
        return plain("ATM Withdrawal");
      case "fee":
        return plain({ MONTHLY: "Monthly Service Fee", WIRE: "Wire Transfer Fee", OVERDRAFT: "Overdraft Fee" }[feeKind(t)]);
      case "interest":
        return plain(r.chance(0.5) ? "Interest Payment" : "INTRST PYMNT");
    }
  },
};

/** Aggregator lines with no enrichment: the institution's words as the aggregator passes them on, glued as it glues them. */
const aggregatorBare: Style = {
  modelledOn: "an aggregator's lines without `merchant_name` (Plaid `name` only)",
  width: null,
  print(t, b, r) {
    switch (t.merchant.kind) {
      case "card":
      case "online": {
        if (t.merchant.recurring) return plain(`Recurring Debit Purchase Card ${b.debitCardLast4} ${titleCase(network(t, "spaced"))}`);
        return plain(r.chance(0.5) ? `POS Debit - Visa Check Card ${b.debitCardLast4} - ${t.descriptor}` : `Point of Sale Withdrawal ${titleCase(network(t, "spaced"))}`);
      }
      case "ach-debit":
        return plain(`ACH Electronic Debit${ach(t).company} ${t.entry}`);
      case "ach-credit":
        return plain(`ACH Electronic Credit${ach(t).company} ${t.entry} ${t.individualId}`);
      case "wire-in":
        return plain(`Wire Transfer Credit ${t.merchant.party}`);
      case "wire-out":
        return plain(`Wire Transfer Debit ${t.merchant.party}`);
      case "transfer-out":
        return plain(`Internet Transfer to ${titleCase(t.merchant.toAccount!.label)} XXXX${t.merchant.toAccount!.mask}`);
      case "transfer-in":
        return plain(`Internet Transfer from Savings XXXX${t.merchant.toAccount!.mask}`);
      case "p2p-out":
        return plain(`Zelle Debit ${t.merchant.party}`);
      case "p2p-in":
        return plain(`Zelle Credit ${t.merchant.party}`);
      case "check":
        return plain(`Check Paid #${t.checkNumber}`);
      case "deposit":
        return plain("Deposit - Mobile");
      case "atm":
        return plain(`ATM Withdrawal - ${titleCase(street(r))}`);
      case "fee":
        return plain({ MONTHLY: "Service Charge", WIRE: "Wire Service Charge", OVERDRAFT: "Overdraft Charge" }[feeKind(t)]);
      case "interest":
        return plain("Interest Credit");
    }
  },
};

/** In the manner of TD Bank: `VISA DDA PUR 469216 ... * CA`, and the kind of entry before a comma (`CCD DEBIT, GUSTO PAYROLL`). */
const ddaPurchase: Style = {
  modelledOn: "TD Bank",
  width: null,
  print(t, b, r) {
    switch (t.merchant.kind) {
      case "card":
      case "online": {
        if (t.account === "card") return plain(network(t, "spaced"));
        const [city, state] = t.merchant.place ?? ["", ""];
        return plain(single(`${r.chance(0.5) ? "VISA DDA PUR" : "DBCRD PUR AP"} ${r.digits(6)} ${t.descriptor.slice(0, 25)} ${city.slice(0, 13)} * ${state}`));
      }
      case "ach-debit":
        return plain(`${ach(t).sec} DEBIT, ${ach(t).company} ${t.entry}`);
      case "ach-credit":
        return plain(`${ach(t).sec} DEPOSIT, ${ach(t).company} ${t.entry} ${t.individualId}`);
      case "wire-in":
        return plain(`INCOMING WIRE, ${t.merchant.party}`);
      case "wire-out":
        return plain(`OUTGOING WIRE, ${t.merchant.party}`);
      case "transfer-out":
        return plain(`eTransfer Debit, Online Xfer Transfer to ${savingsLike(t.merchant.toAccount!.label) ? "SV" : "CK"} ${t.merchant.toAccount!.mask}`);
      case "transfer-in":
        return plain(`eTransfer Credit, Online Xfer Transfer from SV ${t.merchant.toAccount!.mask}`);
      case "p2p-out":
        return plain(`SEND, Zelle ${t.merchant.party}`);
      case "p2p-in":
        return plain(`RECEIVE, Zelle ${t.merchant.party}`);
      case "check":
        return plain(`CHECK ${t.checkNumber}`);
      case "deposit":
        return plain(r.pick(["DEPOSIT", "MOBILE DEPOSIT", "ATM DEPOSIT"]));
      case "atm":
        return plain(`ATM CASH WITHDRAWAL, ${street(r)} ${cityState(b, r)}`);
      case "fee":
        return plain({ MONTHLY: "MAINTENANCE FEE", WIRE: "WIRE TRANSFER FEE", OVERDRAFT: "OVERDRAFT PD" }[feeKind(t)]);
      case "interest":
        return plain("INTEREST PAID");
    }
  },
};

/** In the manner of Fifth Third: `DEBIT CARD PURCHASE AT <name>, <city>, <state> ON 101426 FROM CARD#: XXXXXXXXXXXX4821`, fields between commas. */
const purchaseAt: Style = {
  modelledOn: "Fifth Third",
  width: null,
  print(t, b, r) {
    const d = t.postedOn;
    const mmddyyTight = (iso: string) => `${mm(iso)}${dd(iso)}${yy(iso)}`;
    switch (t.merchant.kind) {
      case "card":
      case "online": {
        if (t.account === "card") return plain(network(t, "spaced"));
        const [city, state] = t.merchant.place ?? ["", ""];
        const words = t.merchant.recurring ? "RECURRING DEBIT CARD PURCHASE AT" : "DEBIT CARD PURCHASE AT";
        return plain(`${words} ${t.descriptor.slice(0, 25).trim()}, ${city.slice(0, 13).trim()}, ${state} ON ${mmddyyTight(t.purchasedOn)} FROM CARD#: XXXXXXXXXXXX${b.debitCardLast4}`);
      }
      case "ach-debit":
        return plain(`${r.chance(0.5) ? "WEB INITIATED PAYMENT AT" : "ACH DEBIT AT"} ${ach(t).company.trim()} ${t.entry} ${t.individualId}`);
      case "ach-credit":
        return plain(`DIRECT DEPOSIT FROM ${ach(t).company.trim()} ${t.entry}`);
      case "wire-in":
        return plain(`INCOMING WIRE TRANSFER FROM ${t.merchant.party} REF ${r.digits(10)}`);
      case "wire-out":
        return plain(`WIRE TRANSFER TO ${t.merchant.party} REF ${r.digits(10)}`);
      case "transfer-out":
        return plain(`5/3 ONLINE TRANSFER TO ${savingsLike(t.merchant.toAccount!.label) ? "SV" : "CK"}: XXXXXX${t.merchant.toAccount!.mask} REF # ${r.digits(9)}`);
      case "transfer-in":
        return plain(`5/3 ONLINE TRANSFER FROM SV: XXXXXX${t.merchant.toAccount!.mask} REF # ${r.digits(9)}`);
      case "p2p-out":
        return plain(`ZELLE PAYMENT TO ${t.merchant.party} ${r.code(11)}`);
      case "p2p-in":
        return plain(`ZELLE PAYMENT FROM ${t.merchant.party} ${r.code(11)}`);
      case "check":
        return plain(`CHECK ${t.checkNumber}`);
      case "deposit":
        return plain(r.pick(["MOBILE DEPOSIT", "DEPOSIT", `ATM DEPOSIT AT ${street(r)} ON ${mmddyyTight(d)}`]));
      case "atm":
        return plain(`ATM WITHDRAWAL AT ${street(r)}, ${b.home[0]}, ${b.home[1]} ON ${mmddyyTight(d)} FROM CARD#: XXXXXXXXXXXX${b.debitCardLast4}`);
      case "fee":
        return plain({ MONTHLY: "SERVICE CHARGE", WIRE: "WIRE TRANSFER FEE", OVERDRAFT: "OVERDRAFT FEE" }[feeKind(t)]);
      case "interest":
        return plain("INTEREST CREDIT");
    }
  },
};

/** In the manner of business neobanks (Mercury and others): the counterparty's name alone, title-cased, no city; ACH fields between semicolons. */
const neobank: Style = {
  modelledOn: "business neobanks (Mercury and others)",
  width: null,
  print(t, b, r) {
    switch (t.merchant.kind) {
      case "card":
      case "online":
        return plain(titleCase(t.descriptor));
      case "ach-debit":
      case "ach-credit":
        return plain(`${titleCase(ach(t).company.trim())}; ${titleCase(t.entry)}${r.chance(0.5) ? `; ${t.individualId}` : ""}`);
      case "wire-in":
        return plain(`Wire from ${titleCase(t.merchant.party!)}`);
      case "wire-out":
        return plain(`Wire to ${titleCase(t.merchant.party!)}`);
      case "transfer-out": {
        const to = t.merchant.toAccount!;
        return plain(`Transfer to ${savingsLike(to.label) ? "Savings" : titleCase(person(t.merchant.party).last || "Checking")} ••${to.mask}`);
      }
      case "transfer-in":
        return plain(`Transfer from Savings ••${t.merchant.toAccount!.mask}`);
      case "p2p-out":
        return plain(`Send Money to ${titleCase(t.merchant.party!)}`);
      case "p2p-in":
        return plain(`Payment from ${titleCase(t.merchant.party!)}`);
      case "check":
        return plain(`Check #${t.checkNumber}`);
      case "deposit":
        return plain(r.pick(["Check deposit", "Mobile check deposit"]));
      case "atm":
        return plain("ATM withdrawal");
      case "fee":
        return plain({ MONTHLY: "Account fee", WIRE: "Wire fee", OVERDRAFT: "Overdraft fee" }[feeKind(t)]);
      case "interest":
        return plain("Interest");
    }
  },
};

/** In the manner of KeyBank: `POS Purchase` before the network's fields and the day after them, `Direct Withdrawal, ...`; cut at 40. */
const directWithdrawal: Style = {
  modelledOn: "KeyBank",
  width: 40,
  print(t, b, r) {
    switch (t.merchant.kind) {
      case "card":
      case "online": {
        if (t.account === "card") return plain(network(t, "spaced"));
        return plain(`${t.merchant.recurring ? "Recurring Purchase" : "POS Purchase"} ${network(t, "spaced")} ${mm(t.purchasedOn)}${dd(t.purchasedOn)}`);
      }
      case "ach-debit":
        return plain(`Direct Withdrawal, ${ach(t).company.trim()} ${t.entry}`);
      case "ach-credit":
        return plain(`Direct Deposit, ${ach(t).company.trim()} ${t.entry}`);
      case "wire-in":
        return plain(`Incoming Wire ${t.merchant.party}`);
      case "wire-out":
        return plain(`Wire Transfer Withdrawal ${t.merchant.party}`);
      case "transfer-out":
        return plain(`Internet Trf To DDA ${t.merchant.toAccount!.mask}`);
      case "transfer-in":
        return plain(`Internet Trf Fr Sav ${t.merchant.toAccount!.mask}`);
      case "p2p-out":
        return plain(`Zelle Send ${t.merchant.party}`);
      case "p2p-in":
        return plain(`Zelle Receive ${t.merchant.party}`);
      case "check":
        return plain(`Check ${t.checkNumber}`);
      case "deposit":
        return plain(r.pick(["Deposit", "Mobile Deposit"]));
      case "atm":
        return plain(`ATM Withdrawal ${street(r)}`);
      case "fee":
        return plain({ MONTHLY: "Maintenance Fee", WIRE: "Wire Fee", OVERDRAFT: "Overdraft Fee" }[feeKind(t)]);
      case "interest":
        return plain("Interest Payment");
    }
  },
};

function plain(description: string): Printed {
  return { description, merchantName: null };
}

export const STYLES = {
  "authorized-on": authorizedOn,
  "card-purchase": cardPurchase,
  checkcard,
  "debit-purchase-visa": debitPurchaseVisa,
  "debit-card-masked": debitCardMasked,
  "credit-union": creditUnion,
  "bare-descriptor": bareDescriptor,
  "aggregator-named": aggregatorNamed,
  "aggregator-bare": aggregatorBare,
  "dda-purchase": ddaPurchase,
  "purchase-at": purchaseAt,
  neobank,
  "direct-withdrawal": directWithdrawal,
} satisfies Record<string, Style>;

export type StyleName = keyof typeof STYLES;
export const STYLE_NAMES = Object.keys(STYLES) as StyleName[];
