/**
 * One scrape, from the request the web layer hands over to the release of what it held:
 * the pending scrape, its deadline from the scrape timeout header, coalescing, cached
 * bodies and admission of renderings (each through its lease of what is kept between
 * scrapes, in {@code reuse}), the choice of encoding, the outcome, the starter's own
 * metrics (recorded once, here) and the release of the body.
 * <p>
 * Imports {@code reuse}, {@code compression} and {@code exposition}; never {@code web},
 * {@code endpoint}, {@code autoconfigure} or {@code recording}.
 */
@NullMarked
package io.github.leanscrape.serve;

import org.jspecify.annotations.NullMarked;
