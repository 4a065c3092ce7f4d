/**
 * What is kept between scrapes, to reuse what did not change. {@code KeptBodies} is the
 * one owner, which {@code serve} reaches three ways only (docs/design.md).
 * <p>
 * Imports {@code compression} and {@code exposition}; never {@code serve}, {@code web},
 * {@code endpoint}, {@code autoconfigure} or {@code recording}.
 */
@NullMarked
package io.github.leanscrape.reuse;

import org.jspecify.annotations.NullMarked;
