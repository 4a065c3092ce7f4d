package io.github.leanscrape.support;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Meters that let a test stall or break a rendering: a gauge whose value waits while the
 * gate is closed, and a function counter that throws while failing is on.
 */
public final class ScrapeGate {

	private volatile CountDownLatch gate = new CountDownLatch(0);

	private volatile CountDownLatch entered = new CountDownLatch(1);

	private volatile boolean failing;

	private volatile String renderingThread = "";

	ScrapeGate(MeterRegistry registry) {
		Gauge.builder("rich.gate", this, ScrapeGate::pass).register(registry);
		FunctionCounter.builder("rich.gate.failing", this, ScrapeGate::countOrFail).register(registry);
	}

	/**
	 * Make the next renderings wait in the gate's gauge until {@link #open()}.
	 */
	public void close() {
		this.entered = new CountDownLatch(1);
		this.gate = new CountDownLatch(1);
	}

	public void open() {
		this.gate.countDown();
	}

	/**
	 * Wait until a rendering is held in the gate.
	 * @return whether one arrived in time
	 * @throws InterruptedException when interrupted
	 */
	public boolean awaitRendering() throws InterruptedException {
		return this.entered.await(10, TimeUnit.SECONDS);
	}

	public void failing(boolean failing) {
		this.failing = failing;
	}

	/**
	 * Return the thread that rendered last, as {@link Thread#toString()} describes it
	 * ({@code VirtualThread[#…]} for a virtual thread).
	 * @return the thread's description, empty before the first rendering
	 */
	public String renderingThread() {
		return this.renderingThread;
	}

	private double pass() {
		this.renderingThread = Thread.currentThread().toString();
		this.entered.countDown();
		try {
			this.gate.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return 1;
	}

	private double countOrFail() {
		if (this.failing) {
			throw new IllegalStateException("Failing on purpose");
		}
		return 1;
	}

}
