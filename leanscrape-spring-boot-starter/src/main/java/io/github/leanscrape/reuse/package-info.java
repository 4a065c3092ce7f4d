/**
 * What is kept between scrapes, to reuse what did not change: per kind (format and name
 * filter) the last body, whose unchanged blocks of series the next rendering copies, and
 * its last compressed form in each coding, whose unchanged segments the next compressed
 * body copies. {@code KeptBodies} is the one owner; {@code serve} reaches it through one
 * {@code RenderLease} per rendering, {@code KeptBodies.encode} per compressed body and
 * {@code KeptBodies.shed} when a rendering waits for memory.
 * <p>
 * Imports {@code compression} and {@code exposition}; never {@code serve}, {@code web},
 * {@code endpoint}, {@code autoconfigure} or {@code recording}.
 */
@NullMarked
package io.github.leanscrape.reuse;

import org.jspecify.annotations.NullMarked;
