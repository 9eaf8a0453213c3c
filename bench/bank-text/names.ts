/**
 * Word pools the generator draws names from: people, places, and the parts of local
 * businesses' names. Common US words only; every seed combines them differently, so no
 * run's merchants are another's.
 */

export const FIRST_NAMES = [
  "JAMES", "MARIA", "DAVID", "LINDA", "MICHAEL", "ANA", "ROBERT", "JENNIFER", "CARLOS", "EMILY", "DANIEL", "SARAH",
  "KEVIN", "JESSICA", "BRIAN", "LAURA", "JOSE", "MEGAN", "ANDREW", "RACHEL", "TUAN", "PRIYA", "MARCUS", "KAYLA",
  "LUIS", "AISHA", "ERIC", "NICOLE", "OMAR", "HANNAH", "STEVEN", "GRACE", "MIGUEL", "OLIVIA", "JASON", "SOFIA",
  "DERRICK", "MEI", "PATRICK", "CHLOE", "VICTOR", "ELENA", "TYLER", "FATIMA", "GREGORY", "YUKI", "RAJ", "BROOKE",
];

export const SURNAMES = [
  "SMITH", "JOHNSON", "WILLIAMS", "BROWN", "JONES", "GARCIA", "MILLER", "DAVIS", "RODRIGUEZ", "MARTINEZ", "NGUYEN",
  "HERNANDEZ", "LOPEZ", "GONZALEZ", "WILSON", "ANDERSON", "THOMAS", "TAYLOR", "MOORE", "JACKSON", "MARTIN", "LEE",
  "PEREZ", "THOMPSON", "WHITE", "HARRIS", "SANCHEZ", "CLARK", "RAMIREZ", "LEWIS", "ROBINSON", "WALKER", "YOUNG",
  "ALLEN", "KING", "WRIGHT", "SCOTT", "TORRES", "HILL", "FLORES", "GREEN", "ADAMS", "NELSON", "BAKER", "HALL",
  "RIVERA", "CAMPBELL", "MITCHELL", "CARTER", "ROBERTS", "PATEL", "KIM", "CHEN", "TRAN", "OKAFOR", "MURPHY",
  "COHEN", "SULLIVAN", "FISCHER", "BECKER", "NOVAK", "SHAPIRO", "DELGADO", "PARK", "SINGH", "OSEI",
];

/** Where a business is, and where its people travel. */
export const CITIES: [city: string, state: string][] = [
  ["OAKLAND", "CA"], ["SAN FRANCISCO", "CA"], ["LOS ANGELES", "CA"], ["SAN DIEGO", "CA"], ["SACRAMENTO", "CA"],
  ["AUSTIN", "TX"], ["HOUSTON", "TX"], ["DALLAS", "TX"], ["SAN ANTONIO", "TX"], ["CHICAGO", "IL"], ["EVANSTON", "IL"],
  ["BROOKLYN", "NY"], ["NEW YORK", "NY"], ["BUFFALO", "NY"], ["DENVER", "CO"], ["BOULDER", "CO"], ["SEATTLE", "WA"],
  ["TACOMA", "WA"], ["PORTLAND", "OR"], ["EUGENE", "OR"], ["PHOENIX", "AZ"], ["TUCSON", "AZ"], ["ATLANTA", "GA"],
  ["SAVANNAH", "GA"], ["MIAMI", "FL"], ["ORLANDO", "FL"], ["TAMPA", "FL"], ["CHARLOTTE", "NC"], ["RALEIGH", "NC"],
  ["NASHVILLE", "TN"], ["MEMPHIS", "TN"], ["COLUMBUS", "OH"], ["CLEVELAND", "OH"], ["PITTSBURGH", "PA"],
  ["PHILADELPHIA", "PA"], ["BOSTON", "MA"], ["CAMBRIDGE", "MA"], ["MINNEAPOLIS", "MN"], ["SAINT PAUL", "MN"],
  ["DETROIT", "MI"], ["ANN ARBOR", "MI"], ["SALT LAKE CITY", "UT"], ["LAS VEGAS", "NV"], ["ALBUQUERQUE", "NM"],
  ["KANSAS CITY", "MO"], ["SAINT LOUIS", "MO"], ["MILWAUKEE", "WI"], ["MADISON", "WI"], ["RICHMOND", "VA"],
  ["ARLINGTON", "VA"], ["BALTIMORE", "MD"], ["NEWARK", "NJ"], ["HOBOKEN", "NJ"], ["PROVIDENCE", "RI"],
];

export const STREETS = ["MAIN ST", "BROADWAY", "MARKET ST", "2ND AVE", "OAK ST", "ELM ST", "PARK AVE", "MILL RD", "LAKE ST", "CENTER ST", "HIGHWAY 9", "UNIVERSITY AVE"];

export const ADJECTIVES = [
  "GOLDEN", "BLUE", "RED", "GREEN", "LUCKY", "LITTLE", "OLD", "HAPPY", "RUSTIC", "URBAN", "SUNNY", "SILVER",
  "NORTHERN", "COASTAL", "PRAIRIE", "HARBOR", "SUMMIT", "MAPLE", "CEDAR", "IRON", "COPPER", "BRIGHT", "WILD", "TRUE",
];

export const NOUNS = [
  "SPOON", "DOOR", "FORK", "BEAN", "OAK", "LANTERN", "KETTLE", "TABLE", "GARDEN", "BIRD", "ANCHOR", "BRIDGE",
  "PINE", "RIVER", "STONE", "FOX", "BEAR", "HIVE", "MILL", "FIELD", "CROWN", "WAVE", "ORCHARD", "COMPASS",
];

/** Eating places: the last word of a restaurant's or cafe's name. */
export const EATERIES = [
  "CAFE", "COFFEE", "KITCHEN", "BISTRO", "TAQUERIA", "DINER", "GRILL", "PIZZA", "BAKERY", "DELI", "NOODLE BAR",
  "SUSHI", "BBQ", "TEA HOUSE", "BURGERS", "PHO", "RAMEN", "BAGELS", "CANTINA", "EATERY",
];

export const CLIENT_TRADES = [
  "CONSULTING", "DESIGN", "HOLDINGS", "GROUP", "PARTNERS", "DENTAL", "REALTY", "LOGISTICS", "BUILDERS", "STUDIO",
  "MEDIA", "HEALTH", "ARCHITECTS", "MARKETING", "VENTURES", "FITNESS", "ENGINEERING", "PROPERTIES", "FOODS", "LABS",
];

export const SUPPLIER_TRADES: Record<string, string[]> = {
  Inventory: ["PRODUCE", "WHOLESALE", "DISTRIBUTORS", "IMPORTS", "FOODS", "TRADING", "SUPPLY", "MERCANTILE"],
  Materials: ["LUMBER", "SUPPLY", "STONE", "ELECTRIC SUPPLY", "PLUMBING SUPPLY", "STEEL", "TILE", "HARDWARE"],
  Packaging: ["PACKAGING", "PAPER", "BOX CO", "LABEL CO", "CONTAINER"],
  Repairs: ["PLUMBING", "ELECTRIC", "HVAC", "LOCKSMITH", "GLASS", "APPLIANCE REPAIR", "PEST CONTROL", "JANITORIAL"],
  "Professional fees": ["CPA", "LAW GROUP", "ACCOUNTING", "LEGAL", "TAX SERVICES", "BOOKKEEPING"],
  Rent: ["PROPERTIES", "PROPERTY MGMT", "REALTY", "HOLDINGS", "LAND CO"],
};

export const LEGAL_SUFFIXES = ["LLC", "INC", "CO", "CORP", "LTD", "LLP"];

/** What the business itself does: its own legal name, and which of its costs weigh most. */
export const TRADES = ["CAFE", "ONLINE SHOP", "CONTRACTING", "DESIGN STUDIO", "CATERING", "LANDSCAPING", "BAKERY", "CONSULTING"];

export const BANK_NAMES = [
  "JPMORGAN CHASE BANK", "BANK OF AMERICA N.A.", "WELLS FARGO BANK", "CITIBANK N.A.", "US BANK NA", "PNC BANK",
  "TRUIST BANK", "TD BANK NA", "CAPITAL ONE NA", "FIFTH THIRD BANK", "SILICON VALLEY BANK", "FIRST REPUBLIC",
];
