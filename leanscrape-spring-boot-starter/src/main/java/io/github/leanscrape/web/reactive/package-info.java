/**
 * The reactive stack's adapter: the format negotiation web filter and the body writer.
 * <p>
 * Imports {@code web}, {@code endpoint}, {@code serve} and {@code exposition}; never the
 * servlet adapter.
 */
@NullMarked
package io.github.leanscrape.web.reactive;

import org.jspecify.annotations.NullMarked;
