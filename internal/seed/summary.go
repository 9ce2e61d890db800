package seed

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// Summary counts what one run created, by resource.
type Summary struct {
	Accounts       int `json:"accounts"`
	Customers      int `json:"customers"`
	PaymentMethods int `json:"payment_methods"`
	Products       int `json:"products"`
	TestClocks     int `json:"test_clocks"`
	Subscriptions  int `json:"subscriptions"`
	Invoices       int `json:"invoices"`
	Transfers      int `json:"transfers"`
	Refunds        int `json:"refunds"`
	Disputes       int `json:"disputes"`
	Payouts        int `json:"payouts"`
	Events         int `json:"events"`
}

// Print writes the summary as a short table, one resource a line.
func (s *Summary) Print(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range []struct {
		name string
		n    int
	}{
		{"accounts", s.Accounts}, {"customers", s.Customers}, {"payment methods", s.PaymentMethods},
		{"products", s.Products}, {"test clocks", s.TestClocks}, {"subscriptions", s.Subscriptions},
		{"invoices", s.Invoices}, {"transfers", s.Transfers}, {"refunds", s.Refunds},
		{"disputes", s.Disputes}, {"payouts", s.Payouts}, {"events", s.Events},
	} {
		fmt.Fprintf(tw, "%s\t%d\n", r.name, r.n)
	}
	return tw.Flush()
}
