/**
 * Recording observations into meters, shared by both web stacks: a meter observation
 * handler that resolves its meters once per distinct observation name and low-cardinality
 * key values, in place of Micrometer's default one; the caches behind it and behind the
 * request conventions; and what recording a request without Micrometer's observation
 * needs on either stack (the meters of a request, the check that only the starter's
 * handler would see an observation, the stand-in observation and its scope). The stacks'
 * own code is in {@code recording.servlet} and {@code recording.reactive}.
 * <p>
 * Stands apart from the scrape: imports none of {@code web}, {@code endpoint},
 * {@code metrics}, {@code serve}, {@code reuse}, {@code compression}, {@code exposition}
 * or {@code autoconfigure}, and neither of its stacks' packages.
 */
@NullMarked
package io.github.leanscrape.recording;

import org.jspecify.annotations.NullMarked;
