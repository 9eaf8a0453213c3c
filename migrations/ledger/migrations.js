import journal from './meta/_journal.json';
import m0000 from './0000_feed.sql';
import m0001 from './0001_append_only_and_relation_c.sql';
import m0002 from './0002_rulebook_labels_taxonomy.sql';
import m0003 from './0003_append_only_and_headers.sql';
import m0004 from './0004_duh_band_floor.sql';
import m0005 from './0005_tail_asks.sql';
import m0006 from './0006_tail_asks_append_only.sql';
import m0007 from './0007_parity_verdicts.sql';
import m0008 from './0008_parity_verdicts_append_only.sql';
import m0009 from './0009_exports.sql';
import m0010 from './0010_exports_append_only.sql';
import m0011 from './0011_messages.sql';
import m0012 from './0012_messages_append_only.sql';
import m0013 from './0013_relation_c_maintained.sql';
import m0014 from './0014_relation_c_words.sql';
import m0015 from './0015_feed_page_closes.sql';
import m0016 from './0016_relation_c_months.sql';
import m0017 from './0017_relation_c_floor.sql';
import m0018 from './0018_model_counts.sql';
import m0019 from './0019_model_calibration.sql';
import m0020 from './0020_exceptions_queue.sql';
import m0021 from './0021_model_evidence.sql';
import m0022 from './0022_bank_items.sql';
import m0023 from './0023_bank_items_append_only.sql';
import m0024 from './0024_parity_oracle_url.sql';
import m0025 from './0025_relation_c_days_and_currency.sql';
import m0026 from './0026_relation_c_engine.sql';
import m0027 from './0027_people.sql';
import m0028 from './0028_people_append_only.sql';
import m0029 from './0029_partial_index_conditions.sql';
import m0030 from './0030_oracle_runs.sql';
import m0031 from './0031_oracle_runs_append_only.sql';
import m0032 from './0032_model_evidence_afresh.sql';
import m0033 from './0033_decisions_by_person.sql';
import m0034 from './0034_shared_prior.sql';
import m0035 from './0035_shared_prior_categories.sql';
import m0036 from './0036_model_evidence_transfer_accounts.sql';
import m0037 from './0037_model_evidence_transfer_shortenings.sql';
import m0038 from './0038_model_evidence_cut_accounts.sql';
import m0039 from './0039_relation_c_figures_by_batch.sql';
import m0040 from './0040_relation_c_category_indexes_apart.sql';

  export default {
    journal,
    migrations: {
      m0000,
m0001,
m0002,
m0003,
m0004,
m0005,
m0006,
m0007,
m0008,
m0009,
m0010,
m0011,
m0012,
m0013,
m0014,
m0015,
m0016,
m0017,
m0018,
m0019,
m0020,
m0021,
m0022,
m0023,
m0024,
m0025,
m0026,
m0027,
m0028,
m0029,
m0030,
m0031,
m0032,
m0033,
m0034,
m0035,
m0036,
m0037,
m0038,
m0039,
m0040
    }
  }
  