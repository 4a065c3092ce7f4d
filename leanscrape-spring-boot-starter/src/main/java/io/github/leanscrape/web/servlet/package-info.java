/**
 * The servlet stack's adapter: the format negotiation filter and the body converter.
 * <p>
 * Imports {@code web}, {@code endpoint}, {@code serve} and {@code exposition}; never the
 * reactive adapter.
 */
@NullMarked
package io.github.leanscrape.web.servlet;

import org.jspecify.annotations.NullMarked;
