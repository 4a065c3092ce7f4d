/**
 * Rendering a scrape into bytes: the renderers and the pooled, chunked output buffers
 * that carry a body to the web layer without copying it.
 */
@NullMarked
package io.github.leanscrape.exposition;

import org.jspecify.annotations.NullMarked;
