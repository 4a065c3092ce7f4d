/**
 * What is kept between scrapes, to reuse what did not change. {@code KeptBodies} is the
 * one owner, which {@code serve} reaches through a lease per rendering, {@code encode}
 * per compressed body and {@code shed} when memory is short (docs/design.md).
 * <p>
 * Imports {@code compression} and {@code exposition}; never {@code serve}, {@code web},
 * {@code endpoint}, {@code metrics}, {@code autoconfigure} or {@code recording}.
 */
@NullMarked
package io.github.leanscrape.reuse;

import org.jspecify.annotations.NullMarked;
