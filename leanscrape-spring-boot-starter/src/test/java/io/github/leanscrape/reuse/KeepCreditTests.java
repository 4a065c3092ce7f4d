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
	void aTryAfterARestEndsInAnotherAtItsSecondBodyKeptForNothing() {
		restLengths(1);
		this.credit.kept(true, false);
		this.credit.kept(true, true);
		assertThat(this.credit.rests()).isFalse();
		this.credit.kept(true, false);
		assertThat(this.credit.rests()).isTrue();
	}

	@Test
	void aTryAfterARestWhereTwoOfThreeBodiesCopyKeepsOnWithTheMostCredit() {
		for (int phase = 0; phase < 3; phase++) {
			KeepCredit credit = new KeepCredit();
			while (!credit.rests()) {
				credit.kept(true, false);
			}
			while (credit.rests()) {
				credit.notKept();
			}
			for (int i = 0; i < 300; i++) {
				credit.kept(true, (i + phase) % 3 != 0);
				assertThat(credit.rests()).as("phase %d, body %d", phase, i).isFalse();
			}
			// The credit of a kind that never rested: one body more kept for nothing
			// does not make it rest.
			credit.kept(true, false);
			assertThat(credit.rests()).as("phase %d", phase).isFalse();
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
			// The first body after the rest, kept, with nothing before it: not counted.
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
