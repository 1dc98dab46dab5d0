// purpose: Create units that an amending document inserts into another document (Điều 12a, khoản 1a); never overwrites a unit its own document wrote.
// mode: write
// param rows: list<map> -- one map per new unit {id, level, supplemented_by: amending document id, props: {doc_id, level, number, path, label, text, text_segmented, valid_from, citation, supplemented_by, inserted_after, ...}}
// returns: count
UNWIND $rows AS row
MERGE (u:LegalNode {id: row.id})
WITH u, row
WHERE u:Placeholder OR NOT u:LegalUnit OR u.supplemented_by = row.supplemented_by
SET u:LegalUnit, u += row.props
REMOVE u:Placeholder, u.kind
FOREACH (_ IN CASE WHEN row.level = 'Article' THEN [1] ELSE [] END | SET u:Article)
FOREACH (_ IN CASE WHEN row.level = 'Clause' THEN [1] ELSE [] END | SET u:Clause)
FOREACH (_ IN CASE WHEN row.level = 'Point' THEN [1] ELSE [] END | SET u:Point)
FOREACH (_ IN CASE WHEN row.level = 'Annex' THEN [1] ELSE [] END | SET u:Annex)
FOREACH (_ IN CASE WHEN row.level = 'Chapter' THEN [1] ELSE [] END | SET u:Chapter)
FOREACH (_ IN CASE WHEN row.level = 'Section' THEN [1] ELSE [] END | SET u:Section)
RETURN count(u) AS count
