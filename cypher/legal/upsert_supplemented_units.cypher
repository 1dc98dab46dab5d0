// purpose: Create units that an amending document inserts into another document (Điều 12a, khoản 1a); never overwrites a unit its own document wrote. A unit made only from a later document's new wording (derive_version_only_units: no text of its own) takes the inserting document's wording when that document is loaded later, so the load order does not change the graph.
// mode: write
// param rows: list<map> -- one map per new unit {id, level, supplemented_by: amending document id, props: {doc_id, level, number, path, label, text, text_segmented, valid_from, citation, supplemented_by, inserted_after, ...}}
// returns: count
UNWIND $rows AS row
MERGE (u:LegalNode {id: row.id})
WITH u, row
WHERE u:Placeholder OR NOT u:LegalUnit OR u.supplemented_by = row.supplemented_by
   OR (u.text IS NULL AND u.supplemented_by IS NOT NULL AND NOT u:UnitVersion)
SET u += row.props, u:$(['LegalUnit'] + CASE
  WHEN row.level IN ['Article', 'Clause', 'Point', 'Annex', 'Chapter', 'Section'] THEN [row.level]
  ELSE [] END)
REMOVE u:Placeholder, u.kind
RETURN count(u) AS count
