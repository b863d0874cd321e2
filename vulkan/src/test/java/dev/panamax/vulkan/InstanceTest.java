package dev.panamax.vulkan;

import dev.panamax.vulkan.binding.VkPhysicalDevice;
import dev.panamax.vulkan.binding.VkPhysicalDeviceProperties;
import dev.panamax.vulkan.binding.Vulkan;
import dev.panamax.vulkan.binding.VulkanApi;
import dev.panamax.vulkan.binding.VulkanException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** The Vulkan loader (libvulkan1) with lavapipe (mesa-vulkan-drivers), the CPU Vulkan device, through the imported binding. */
class InstanceTest {
    private static final String NO_DRIVER = "the Vulkan loader found no driver (ICD): install mesa-vulkan-drivers"
            + " (lavapipe, a CPU Vulkan device; ./panamax installs it) or point VK_ICD_FILENAMES at an ICD manifest";

    /** Creates an instance, failing with what to install when the loader has no driver to create it on. */
    private static Instance create(List<String> extensions) {
        try {
            return Instance.create("panamax-test", extensions);
        } catch (VulkanException e) {
            if (e.code() == Vulkan.VK_ERROR_INCOMPATIBLE_DRIVER) {
                fail(NO_DRIVER + " (" + e.getMessage() + ")");
            }
            throw e;
        }
    }

    @Test
    void instanceVersionIsAtLeastOnePointZero() {
        int version = Instance.version();
        assertTrue(Integer.compareUnsigned(version, Vulkan.VK_API_VERSION_1_0) >= 0, Integer.toHexString(version));
        assertEquals(0, version >>> 29, "variant of " + Integer.toHexString(version));
    }

    @Test
    void instanceExtensionsAreListed() {
        List<String> extensions = Instance.extensions();
        assertFalse(extensions.isEmpty(), NO_DRIVER);
        assertTrue(extensions.stream().allMatch(name -> name.startsWith("VK_")), extensions.toString());
        assertEquals(extensions.size(), extensions.stream().distinct().count(), extensions.toString());
    }

    @Test
    void createEnumerateAndReadTheDeviceName() {
        try (Instance vk = create(List.of())) {
            List<VkPhysicalDevice> devices = vk.physicalDevices();
            assertFalse(devices.isEmpty(), NO_DRIVER);
            List<String> names = devices.stream().map(Instance::deviceName).toList();
            assertTrue(names.stream().anyMatch(name -> name.startsWith("llvmpipe")),
                    "no lavapipe device (llvmpipe ...) among " + names + "; " + NO_DRIVER);
            VkPhysicalDeviceProperties properties = VulkanApi.vkGetPhysicalDeviceProperties(devices.getFirst());
            assertTrue(Integer.compareUnsigned(properties.apiVersion(), Vulkan.VK_API_VERSION_1_0) >= 0);
            assertTrue(properties.limits().maxImageDimension2D() >= 4096, properties.limits().toString());
        }
    }

    @Test
    void anEnabledExtensionTheLoaderOffersIsAccepted() {
        String first = Instance.extensions().getFirst();
        try (Instance vk = create(List.of(first))) {
            assertFalse(vk.isClosed());
        }
    }

    @Test
    void closeDestroysOnceAndASecondCloseDoesNothing() {
        Instance vk = create(List.of());
        vk.handle();
        vk.close();
        assertTrue(vk.isClosed());
        vk.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, vk::physicalDevices);
        assertEquals("the Vulkan instance is closed", e.getMessage());
    }

    @Test
    void aMissingExtensionIsAnExceptionNamingFunctionAndResult() {
        create(List.of()).close();   // without a driver the loader answers VK_ERROR_INCOMPATIBLE_DRIVER first
        VulkanException e = assertThrows(VulkanException.class,
                () -> Instance.create("panamax-test", List.of("VK_PANAMAX_no_such_extension")).close());
        assertEquals("vkCreateInstance", e.function());
        assertEquals(Vulkan.VK_ERROR_EXTENSION_NOT_PRESENT, e.code());
        assertEquals("VK_ERROR_EXTENSION_NOT_PRESENT", e.errorName());
        assertTrue(e.getMessage().contains("VK_ERROR_EXTENSION_NOT_PRESENT (-7) in vkCreateInstance"), e.getMessage());
    }

    @Test
    void theCountOfAnEnumerationIsTheDevicesWritten() {
        try (Instance vk = create(List.of())) {
            int[] count = new int[1];
            VulkanApi.vkEnumeratePhysicalDevices(vk.handle(), count, null);
            assertTrue(count[0] >= 1, NO_DRIVER);
            int all = count[0];
            VkPhysicalDevice[] none = new VkPhysicalDevice[0];
            count[0] = 0;
            VulkanApi.vkEnumeratePhysicalDevices(vk.handle(), count, none);   // VK_INCOMPLETE is a success
            assertEquals(0, count[0]);
            VkPhysicalDevice[] devices = new VkPhysicalDevice[all];
            count[0] = all;
            VulkanApi.vkEnumeratePhysicalDevices(vk.handle(), count, devices);
            assertEquals(all, count[0]);
            for (VkPhysicalDevice d : devices) {
                assertTrue(d != null && d.handle().address() != 0);
            }
        }
    }
}
