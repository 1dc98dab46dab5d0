// purpose: The title links of the kept anchors in a round trip of their own (the reasoner's hop-by-hop mode; sentence/expand_paths finds the same links with its hops): sentences of passages a seed's sentence names by title, and sentences of other passages naming the seed's passage title.
// mode: read
// param links: list<map> -- one per kept anchor, {id, passage_id, keys, own, phrase}: keys = entity keys of its sentence's names, own = its passage title's key, phrase = its title as a fulltext phrase ('' for none)
// param embedding: list<float> -- the question's vector
// param link_beam: int -- sentences kept per seed and direction, the most question-similar first
// returns: linked
// include: _title_links
RETURN linked
