package io.github.leanscrape.support;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The same application twice on one web stack, on free ports of the loopback interface:
 * once with the starter serving the {@code prometheus} endpoint, once with Spring Boot's
 * own endpoint ({@code leanscrape.enabled=false}), for tests that send both the same
 * requests.
 */
public final class WithAndWithoutStarter implements AutoCloseable {

	private final String stack;

	private final ConfigurableApplicationContext leanscrape;

	private final ConfigurableApplicationContext springBoot;

	private WithAndWithoutStarter(String stack, ConfigurableApplicationContext leanscrape,
			ConfigurableApplicationContext springBoot) {
		this.stack = stack;
		this.leanscrape = leanscrape;
		this.springBoot = springBoot;
	}

	/**
	 * Start both applications.
	 * @param stack {@code servlet} (Tomcat) or {@code reactive} (Reactor Netty)
	 * @return the running applications; close them to stop them
	 */
	public static WithAndWithoutStarter start(String stack) {
		ConfigurableApplicationContext leanscrape = start(stack, true);
		try {
			return new WithAndWithoutStarter(stack, leanscrape, start(stack, false));
		}
		catch (RuntimeException ex) {
			leanscrape.close();
			throw ex;
		}
	}

	private static ConfigurableApplicationContext start(String stack, boolean leanscrape) {
		return new SpringApplicationBuilder(ScrapeTestApplication.class)
			.properties("spring.main.web-application-type=" + stack, "server.port=0", "server.address=127.0.0.1",
					"management.endpoints.web.exposure.include=prometheus", "leanscrape.enabled=" + leanscrape,
					"spring.main.banner-mode=off")
			.run();
	}

	/**
	 * Return the web stack.
	 * @return {@code servlet} or {@code reactive}
	 */
	public String stack() {
		return this.stack;
	}

	/**
	 * Return the port of the application with the starter.
	 * @return the port
	 */
	public int leanscrapePort() {
		return port(this.leanscrape);
	}

	/**
	 * Return the port of the application with Spring Boot's endpoint.
	 * @return the port
	 */
	public int springBootPort() {
		return port(this.springBoot);
	}

	private static int port(ConfigurableApplicationContext context) {
		return ((WebServerApplicationContext) context).getWebServer().getPort();
	}

	@Override
	public void close() {
		try {
			this.leanscrape.close();
		}
		finally {
			this.springBoot.close();
		}
	}

}
