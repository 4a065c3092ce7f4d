package io.github.leanscrape.prometheus;

import io.github.leanscrape.demo.DemoApplication;

import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The demo application in this JVM, on a free port of the loopback interface, for the
 * scraping servers to scrape.
 *
 * @param context the application
 * @param port the port it listens on
 */
record RunningDemo(ConfigurableApplicationContext context, int port) implements AutoCloseable {

	/**
	 * Start the demo.
	 * @param series how many synthetic series it registers
	 * @param sources further configuration, a test's
	 * @param arguments further application arguments
	 * @return the running demo; close it to stop it
	 */
	static RunningDemo start(int series, Class<?>[] sources, String... arguments) {
		String[] all = new String[arguments.length + 4];
		all[0] = "--server.port=0";
		all[1] = "--server.address=127.0.0.1";
		all[2] = "--demo.series=" + series;
		all[3] = "--spring.main.banner-mode=off";
		System.arraycopy(arguments, 0, all, 4, arguments.length);
		ConfigurableApplicationContext context = DemoApplication.application(sources).run(all);
		return new RunningDemo(context, ((WebServerApplicationContext) context).getWebServer().getPort());
	}

	@Override
	public void close() {
		this.context.close();
	}

}
