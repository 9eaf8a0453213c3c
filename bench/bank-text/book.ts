/**
 * A business's book printed in every bank style, each line carrying its truth, and the two
 * ways the evaluation splits it: in one style (labels and test lines printed by the same
 * bank), and leave-one-style-out (labels printed by five other banks, test lines by the
 * one held out).
 */
import { type Ambiguity, type Business, DEFAULT_STREAM, type Header, headerOf, type Kind, makeBusiness, type StreamOptions, transactions, type Txn } from "./business";
import { Rand } from "./random";
import { STYLE_NAMES, STYLES, type StyleName } from "./styles";

/** A line as the bank feed delivers it (the model's input), with its truth beside it. */
export interface BankLine {
  id: number;
  description: string;
  merchantName: string | null;
  amountCents: number;
  accountId: string;
  postedOn: string;
  // The truth:
  category: string;
  header: Header;
  /** The counterparty's identity within the business. */
  merchantId: string;
  /** The counterparty as a person would name it. */
  merchant: string;
  kind: Kind;
  style: StyleName;
  ambiguity: Ambiguity;
  /** An ambiguous store of the business's own town (business.ts `LOCAL_AMBIGUOUS`), not a chain. */
  localStore: boolean;
  /** Whether the text names the counterparty at all (a check's never does). */
  nameInText: boolean;
  period: Txn["period"];
  /** The counterparty appears first in the test period. */
  newMerchant: boolean;
}

export interface Book {
  business: Business;
  txns: Txn[];
  /** Every transaction printed in every style: `lines[style][i]` is `txns[i]`. */
  lines: Record<StyleName, BankLine[]>;
  /** How many of the transactions are the training period's (the first ones). */
  training: number;
}

export function makeBook(seed: number, options: StreamOptions = DEFAULT_STREAM): Book {
  const business = makeBusiness(seed);
  const txns = transactions(business, options);
  const lines = {} as Record<StyleName, BankLine[]>;
  STYLE_NAMES.forEach((style, s) => {
    const r = new Rand(seed * 1_000_003 + (s + 1) * 7_777);
    const { print, width } = STYLES[style];
    lines[style] = txns.map((t) => {
      const printed = print(t, business, r);
      const description = (width === null ? printed.description : printed.description.slice(0, width)).trimEnd();
      return {
        id: t.index + 1,
        description,
        merchantName: printed.merchantName,
        amountCents: t.amountCents,
        accountId: t.account === "card" ? "acc_card" : "acc_checking",
        postedOn: t.postedOn,
        category: t.category,
        header: headerOf(t.category),
        merchantId: t.merchant.id,
        merchant: t.merchant.name,
        kind: t.merchant.kind,
        style,
        ambiguity: t.merchant.ambiguity,
        localStore: t.merchant.localStore === true,
        nameInText: t.merchant.kind !== "check",
        period: t.period,
        newMerchant: t.merchant.isNew,
      };
    });
  });
  return { business, txns, lines, training: options.training };
}

export interface Split {
  /** The labelled past: the first lines of the training period, in time order. */
  labels: BankLine[];
  /**
   * Every line of the training period, the labelled ones first: what the tenant's ledger
   * holds before the test period, labelled or not (the model sees every line of the feed).
   */
  past: BankLine[];
  /** The whole test period. */
  test: BankLine[];
  /** The styles the labels are printed in. */
  trainingStyles: StyleName[];
  testStyle: StyleName;
}

/** A business banking in one style: labels and test lines printed alike. */
export function inStyle(book: Book, style: StyleName, labels: number): Split {
  const past = book.lines[style].slice(0, book.training);
  return {
    labels: past.slice(0, Math.min(labels, book.training)),
    past,
    test: book.lines[style].slice(book.training),
    trainingStyles: [style],
    testStyle: style,
  };
}

/**
 * A business banking in one style, its labels drawn at random from the whole training
 * period rather than its first lines (the same draw in every style): a person, or an
 * evaluation, may label any lines, and how a merchant's few labels fall is luck that the
 * first lines alone would fix once per business.
 */
export function inStyleAtRandom(book: Book, style: StyleName, labels: number): Split {
  const whole = inStyle(book, style, book.training);
  const r = new Rand(book.business.seed * 104_729 + labels);
  const chosen = new Set(r.sample(whole.past.map((_, i) => i), Math.min(labels, book.training)));
  // The labelled lines first, in time order, as `past` holds them.
  const past = [...whole.past.filter((_, i) => chosen.has(i)), ...whole.past.filter((_, i) => !chosen.has(i))];
  return { ...whole, labels: past.slice(0, chosen.size), past };
}

/**
 * Labels printed in `styles` other styles (each label in one of them at random), test
 * lines in the held-out style: text the model was never trained on, from merchants it was.
 * The training period's unlabelled lines are printed as its labels are.
 */
export function leaveOneStyleOut(book: Book, heldOut: StyleName, labels: number, styles = 5): Split {
  const r = new Rand(book.business.seed * 31 + STYLE_NAMES.indexOf(heldOut) + 1);
  const trainingStyles = r.sample(
    STYLE_NAMES.filter((s) => s !== heldOut),
    styles,
  );
  const count = Math.min(labels, book.training);
  const past = Array.from({ length: book.training }, (_, i) => book.lines[r.pick(trainingStyles)][i]!);
  return {
    labels: past.slice(0, count),
    past,
    test: book.lines[heldOut].slice(book.training),
    trainingStyles,
    testStyle: heldOut,
  };
}
