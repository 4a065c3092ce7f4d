/**
 * Rendering a scrape into pooled, chunked bodies. No HTTP, no scrape policy, no
 * compression; imports nothing else of the starter's, its format writers ({@code direct},
 * {@code reference}) included.
 */
@NullMarked
package io.github.leanscrape.exposition;

import org.jspecify.annotations.NullMarked;
