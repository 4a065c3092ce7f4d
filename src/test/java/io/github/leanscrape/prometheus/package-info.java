/**
 * Tests against the real Prometheus: a server scraping the demo application, and
 * {@code promtool}'s lint of the text format.
 */
@NullMarked
package io.github.leanscrape.prometheus;

import org.jspecify.annotations.NullMarked;
