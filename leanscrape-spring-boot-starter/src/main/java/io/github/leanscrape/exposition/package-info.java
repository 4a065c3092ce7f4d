/**
 * Rendering a scrape into pooled, chunked bodies. No HTTP, no scrape policy, no
 * compression; imports nothing else of the starter's, {@code direct} included.
 */
@NullMarked
package io.github.leanscrape.exposition;

import org.jspecify.annotations.NullMarked;
