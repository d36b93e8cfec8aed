package lt
import ("testing";"os";"path/filepath";"github.com/errgen/errgen/internal/contract";"github.com/errgen/errgen/internal/gengo")
func TestGen(t *testing.T){
  c, err := contract.LoadFile("/work/main/contract/kinds.yaml")
  if err != nil { t.Fatal(err) }
  files, err := gengo.Generate(c)
  if err != nil { t.Fatal(err) }
  for p, b := range files { os.MkdirAll(filepath.Dir("/work/main/"+p), 0o755); os.WriteFile("/work/main/"+p, b, 0o644) }
}
