/**
 * Rendering a scrape into bytes: the renderers, and the pooled, chunked output that
 * carries a body to the web layer without copying it (with its gzip encoder and size
 * hints). No HTTP, no scrape policy.
 * <p>
 * Imports nothing of the starter's outside its own subpackages.
 */
@NullMarked
package io.github.leanscrape.exposition;

import org.jspecify.annotations.NullMarked;
