// hopgraph: example queries for Neo4j Browser (http://127.0.0.1:7474/browser/).
// Load the style first: drag docker/browser/hopgraph.grass onto the Browser window,
// or run `:style` and paste the file. Each query below runs on its own.

// 1. What is loaded: nodes per label.
MATCH (n) UNWIND labels(n) AS label RETURN label, count(*) AS nodes ORDER BY nodes DESC;

// 2. A document and its structure, two levels down.
MATCH p = (d:Document)-[:CONTAINS*1..2]->(:LegalUnit) RETURN p LIMIT 80;

// 3. Amendment chains: which units were changed, by which instruction, and the new wording.
MATCH p = (:LegalUnit)-[:AMENDS|SUPPLEMENTS|REPLACES|REPEALS]->(:LegalNode) RETURN p LIMIT 50;

// 4. Versions of one unit in date order (new wording enacted by amending documents).
MATCH (v:UnitVersion)-[:VERSION_OF]->(u:LegalUnit)
RETURN u.id AS unit, v.id AS version, v.valid_from AS valid_from, left(v.text, 120) AS text
ORDER BY unit, valid_from;

// 5. Cross-references and what is still a placeholder.
MATCH p = (:LegalUnit)-[:REFERS_TO]->(t) RETURN p LIMIT 50;
MATCH (p:Placeholder) RETURN p.id, p.kind LIMIT 25;

// 6. Full-text search over word-segmented legal text (words joined by '_').
CALL db.index.fulltext.queryNodes('legalunit_text_segmented_fulltext', 'bảo_hiểm AND y_tế', {limit: 10})
YIELD node, score RETURN node.citation, score, left(node.text, 100);

// 6b. Defined terms: what each definitions article ("Giải thích từ ngữ") defines, and where.
MATCH (u:LegalUnit)-[r:DEFINES]->(t:DefinedTerm)
RETURN t.doc_id AS document, t.term AS term, u.id AS defined_by, left(r.definition, 100) AS definition
ORDER BY document, term LIMIT 50;

// 7. Biomedical neighbourhood of a drug.
MATCH p = (d:Drug)-[r]-(x:BioEntity) RETURN p LIMIT 40;

// 8. A sentence graph: topic, cores, supplementary sentences and bridges.
MATCH p = (t:Topic)-[:HAS_CORE]->(:Core)-[:SUPPORTS]->(:Supplementary) RETURN p LIMIT 40;
MATCH p = (:Topic)-[:BRIDGE]-(:Topic) RETURN p LIMIT 40;
