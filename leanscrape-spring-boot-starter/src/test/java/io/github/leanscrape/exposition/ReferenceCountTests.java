package io.github.leanscrape.exposition;

import io.github.leanscrape.support.OwnCodeTests;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A reference count: the last release is told as such, once, and nothing is retained
 * after it.
 */
@Tag(OwnCodeTests.TAG)
class ReferenceCountTests {

	@Test
	void onlyTheLastReleaseIsTheLastAndNothingIsRetainedAfterIt() {
		ReferenceCount references = new ReferenceCount();
		assertThat(references.isOnly()).isTrue();
		assertThat(references.tryRetain()).isTrue();
		assertThat(references.isOnly()).isFalse();
		assertThat(references.release()).as("one left").isFalse();
		assertThat(references.isOnly()).isTrue();
		assertThat(references.release()).as("the last").isTrue();
		assertThat(references.isReleased()).isTrue();
		assertThat(references.tryRetain()).isFalse();
		assertThat(references.release()).as("released more often than retained").isFalse();
		assertThat(references.isReleased()).isTrue();
	}

}
