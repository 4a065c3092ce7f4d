/**
 * The direct path: text exposition written straight from Micrometer's meters, with the
 * reference path as fallback wherever the same bytes cannot be promised.
 */
@NullMarked
package io.github.leanscrape.exposition.direct;

import org.jspecify.annotations.NullMarked;
