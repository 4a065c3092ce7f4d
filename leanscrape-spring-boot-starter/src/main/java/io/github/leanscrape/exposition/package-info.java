/**
 * Rendering a scrape into bytes: the renderers, and the pooled, chunked output that
 * carries a body to the web layer without copying it, with its size hints and the content
 * codings a body may be in. No HTTP, no scrape policy, no compression.
 * <p>
 * Imports nothing else of the starter's, its subpackage {@code direct} included.
 */
@NullMarked
package io.github.leanscrape.exposition;

import org.jspecify.annotations.NullMarked;
