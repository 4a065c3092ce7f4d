package io.github.leanscrape.reuse;

import io.github.leanscrape.support.OwnCodeTests;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KeepCredit}: when a kind rests, and for how long.
 *
 * @author leanscrape
 */
@Tag(OwnCodeTests.TAG)
class KeepCreditTests {

	private final KeepCredit credit = new KeepCredit();

	@Test
	void threeBodiesKeptForNothingInARowMakeAKindRest() {
		this.credit.kept(true, false);
		this.credit.kept(true, false);
		assertThat(this.credit.rests()).isFalse();
		this.credit.kept(true, false);
		assertThat(this.credit.rests()).isTrue();
	}

	@Test
	void twoBodiesUsedForEachUnusedKeepAKindKeeping() {
		for (int i = 0; i < 300; i++) {
			this.credit.kept(true, i % 3 != 0);
			assertThat(this.credit.rests()).as("body %d", i).isFalse();
		}
	}

	@Test
	void oneBodyUsedForEachUnusedMakesAKindRest() {
		boolean rested = false;
		for (int i = 0; i < 20 && !rested; i++) {
			this.credit.kept(true, i % 2 == 0);
			rested = this.credit.rests();
		}
		assertThat(rested).isTrue();
	}

	@Test
	void aBodyThatCannotCountLeavesTheCreditAsItIs() {
		for (int i = 0; i < 10; i++) {
			this.credit.kept(false, false);
		}
		assertThat(this.credit.rests()).isFalse();
	}

	@Test
	void restsLast16Then32Then64BodiesWhileEachTryEndsInAnother() {
		assertThat(restLengths(4)).containsExactly(16, 32, 64, 64);
	}

	@Test
	void aLongKeepAfterARestMakesTheNextRestShortAgain() {
		assertThat(restLengths(2)).containsExactly(16, 32);
		for (int i = 0; i < 100; i++) {
			this.credit.kept(true, true);
		}
		assertThat(restLengths(1)).containsExactly(16);
	}

	@Test
	void aTryAfterARestEndsInAnotherAtItsFirstBodyKeptForNothing() {
		restLengths(1);
		this.credit.kept(true, false);
		assertThat(this.credit.rests()).isTrue();
	}

	@Test
	void aTryAfterARestThatCopiesKeepsTheKindKeeping() {
		restLengths(1);
		for (int i = 0; i < 300; i++) {
			this.credit.kept(true, i % 3 != 2);
			assertThat(this.credit.rests()).as("body %d", i).isFalse();
		}
	}

	@Test
	void aRestOrderedFromOutsideLastsAsLongAsOneEarned() {
		this.credit.rest();
		assertThat(restedBodies()).isEqualTo(16);
		this.credit.kept(false, false);
		this.credit.rest();
		assertThat(restedBodies()).isEqualTo(32);
	}

	/**
	 * Let the kind rest as many times, each try after a rest kept for nothing.
	 */
	private int[] restLengths(int rests) {
		int[] lengths = new int[rests];
		for (int rest = 0; rest < rests; rest++) {
			while (!this.credit.rests()) {
				this.credit.kept(true, false);
			}
			lengths[rest] = restedBodies();
			// The first body after the rest, kept: the credit starts again.
			this.credit.kept(false, false);
		}
		return lengths;
	}

	private int restedBodies() {
		int rested = 0;
		while (this.credit.rests()) {
			this.credit.notKept();
			rested++;
		}
		return rested;
	}

}
