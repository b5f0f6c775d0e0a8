package plots_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/chbench/chbench/plots"
	"github.com/chbench/chbench/schema"
)

// Draw the plots of a results directory holding only a movement and a
// weights file: RenderAll skips the plots of the missing inputs and
// returns the files it wrote, under dir/plots, in a fixed order: for each
// scenario of movement.csv the moved fraction and moved/ideal, then the
// per-node shares of weights.csv, each as PNG and SVG.
func ExampleRenderAll() {
	dir, err := os.MkdirTemp("", "chbench-plots-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	for _, name := range []string{schema.MovementFile.Name, schema.WeightsFile.Name} {
		b, err := os.ReadFile(filepath.Join("testdata", "ok", name))
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, name), b, 0o644)
		}
		if err != nil {
			fmt.Println(err)
			return
		}
	}
	files, err := plots.RenderAll(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range files {
		rel, err := filepath.Rel(dir, f)
		if err != nil {
			fmt.Println(err)
			return
		}
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			fmt.Println("missing or empty:", rel, err)
		}
		fmt.Println(filepath.ToSlash(rel))
	}
	// Output:
	// plots/movement-add.png
	// plots/movement-add.svg
	// plots/movement-ratio-add.png
	// plots/movement-ratio-add.svg
	// plots/movement-remove-random.png
	// plots/movement-remove-random.svg
	// plots/movement-ratio-remove-random.png
	// plots/movement-ratio-remove-random.svg
	// plots/weights.png
	// plots/weights.svg
}
